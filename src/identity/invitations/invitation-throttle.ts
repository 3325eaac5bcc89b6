import type { Pool } from 'pg';
import type { Config } from '../../config';
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { rateLimitError } from '../../shared/app-error';
import { sharedCounter, spendEach } from '../../security/shared-counter';
import { normaliseEmail } from '../sign-in/email';

/**
 * Invitations mailed (issue 34): each one carries text its Admin chose (the workspace's name, their
 * own), to any address. Without a bound, anyone who signs up could have the service mail strangers
 * without end, or one inbox again and again. Per inviting person, across their workspaces
 * (INVITATIONS_PER_INVITER_PER_HOUR), and per invited address, across every workspace
 * (INVITATIONS_PER_ADDRESS_PER_DAY).
 */
export class InvitationThrottle {
  private readonly byInviter: RateLimiterPostgres;
  private readonly byAddress: RateLimiterPostgres;

  constructor(
    pool: Pool,
    config: Pick<Config, 'INVITATIONS_PER_INVITER_PER_HOUR' | 'INVITATIONS_PER_ADDRESS_PER_DAY'>,
  ) {
    const perWindow = (keyPrefix: string, rule: { points: number; windowSeconds: number }) =>
      sharedCounter(pool, {
        keyPrefix,
        points: rule.points,
        duration: rule.windowSeconds,
        clearExpired: true,
      });
    this.byInviter = perWindow('invitations-inviter', {
      points: config.INVITATIONS_PER_INVITER_PER_HOUR,
      windowSeconds: 60 * 60,
    });
    this.byAddress = perWindow('invitations-address', {
      points: config.INVITATIONS_PER_ADDRESS_PER_DAY,
      windowSeconds: 24 * 60 * 60,
    });
  }

  /** Counts one invitation (whatever comes of it), or refuses it with 429 `invitationThrottled`. */
  async count(subject: { inviterId: string; email: string }): Promise<void> {
    const why = [
      'You have sent too many invitations this hour.',
      'This address was invited too many times today.',
    ];
    await spendEach(
      [
        [this.byInviter, subject.inviterId],
        [this.byAddress, normaliseEmail(subject.email)],
      ],
      (seconds, index) =>
        rateLimitError(
          `${why[index]} Try again in ${Math.ceil(seconds / 60)} minutes.`,
          seconds,
          'invitationThrottled',
        ),
    );
  }
}
