import type { Pool } from 'pg';
import type { Config } from '../../config';
import { rateLimitError, type AppError } from '../../shared/app-error';
import { BURST_WINDOW_S, RequestQuota, type QuotaDecision } from '../../security/request-quota';
import { SteadyChain, type SteadyRow, type SteadyStep } from '../../security/steady-chain';

/**
 * Who a request counts against: its credential (an API key, an OAuth connection or a web session),
 * its workspace, and the person who created the workspace (none for one made from the CLI).
 */
export interface QuotaSubject {
  credential: string;
  workspace: string;
  creator?: string | null;
}

/** What a request may do: the RateLimit headers every answer carries, and a refusal when over quota. */
export interface QuotaVerdict {
  headers: Record<string, string>;
  refusal?: AppError;
}

/**
 * The request quotas of REST, MCP and the web app (docs/security.md, "Limits"): each API key, OAuth
 * connection or web session, each workspace, and all the workspaces one person created together,
 * to its own token bucket, shared by every API process. A request is counted against its
 * credential first; only one within it counts against the workspace, and only one within that
 * against its creator's, so one person's five workspaces are served what one is. Every answer
 * says where the caller stands in the IETF RateLimit fields (`RateLimit-Policy`, `RateLimit`); one
 * over a quota is refused with 429 rate_limit and `Retry-After`.
 */
export class RequestQuotas {
  constructor(
    private readonly byCredential: RequestQuota,
    private readonly byWorkspace: RequestQuota,
    private readonly byPerson: RequestQuota,
    private readonly hold: (ms: number) => Promise<void> = (ms) =>
      new Promise((done) => setTimeout(done, ms)),
    private readonly chain?: SteadyChain,
  ) {}

  async check(subject: QuotaSubject): Promise<QuotaVerdict> {
    const steps: [RequestQuota, string][] = [
      [this.byCredential, subject.credential],
      [this.byWorkspace, subject.workspace],
    ];
    if (subject.creator) steps.push([this.byPerson, subject.creator]);
    const taken = await this.takeSteady(steps);
    const decisions: QuotaDecision[] = [];
    for (const [index, [quota, key]] of steps.entries()) {
      const row = taken?.[index];
      const decision = row ? await quota.consumeTaken(key, row) : await quota.consume(key);
      decisions.push(decision);
      if (!decision.allowed) break;
    }
    const headers = {
      'RateLimit-Policy': steps.map(([quota]) => policyOf(quota)).join(', '),
      RateLimit: decisions.map(rateLimitOf).join(', '),
    };
    const refused = decisions.find((decision) => !decision.allowed);
    if (!refused) return { headers };
    // A refusal answered at once lets a client that retries at once (a loop, a flood) spin this
    // process at thousands of refusals a second, which every other workspace's requests then wait
    // behind. Held for half the time to the quota's next window, it holds the client's place in its
    // own line (src/http/quotas/fair-share.ts) meanwhile, so a flooding key costs a few refusals a
    // second; a client that waits for Retry-After, as the spec asks, sees no difference.
    await this.hold(refusalHoldMs(refused));
    return { headers, refusal: quotaRefusal(refused, this.quotaOf(refused.name)) };
  }

  /**
   * Every quota's steady point in one statement, each taken only when the one before stayed within
   * its second (src/security/steady-chain.ts); where one ran out, the steps after it are left to
   * consume(), which asks the burst reserve first. None taken without a chain, or while a step's key
   * is refused from memory: consume() answers that one without the database. When PostgreSQL
   * fails, each step gets the error, and its count in memory stands in.
   */
  private async takeSteady(
    steps: readonly [RequestQuota, string][],
  ): Promise<(SteadyRow | Error | null)[] | undefined> {
    if (!this.chain) return undefined;
    const chain = steps.map(([quota, key]) => quota.steadyStep(key));
    if (chain.some((step) => !step)) return undefined;
    try {
      return await this.chain.take(chain as SteadyStep[]);
    } catch (failed) {
      const error = failed instanceof Error ? failed : new Error(String(failed));
      return steps.map(() => error);
    }
  }

  private quotaOf(name: string): RequestQuota {
    return [this.byCredential, this.byWorkspace, this.byPerson].find((quota) => quota.name === name)!;
  }
}

/**
 * One API process's quotas, from the settings: API keys and OAuth connections (REST and MCP), and
 * the web app's sessions (`/app/api`), each beside the one workspace bucket they all draw from, so
 * a workspace's keys and its people in the web app share its quota (issue 34, item 2).
 */
export function requestQuotasOf(
  config: Pick<
    Config,
    | 'QUOTA_PER_KEY'
    | 'QUOTA_BURST_PER_KEY'
    | 'QUOTA_PER_SESSION'
    | 'QUOTA_BURST_PER_SESSION'
    | 'QUOTA_PER_WORKSPACE'
    | 'QUOTA_BURST_PER_WORKSPACE'
    | 'QUOTA_PER_PERSON'
    | 'QUOTA_BURST_PER_PERSON'
  >,
  pool: Pool,
): { credentials: RequestQuotas; sessions: RequestQuotas } {
  const quota = (name: string, perSecond: number, burst: number) =>
    new RequestQuota(name, { perSecond, burst }, pool);
  const chain = new SteadyChain(pool);
  const workspace = quota('workspace', config.QUOTA_PER_WORKSPACE, config.QUOTA_BURST_PER_WORKSPACE);
  const person = quota('person', config.QUOTA_PER_PERSON, config.QUOTA_BURST_PER_PERSON);
  return {
    credentials: new RequestQuotas(
      quota('credential', config.QUOTA_PER_KEY, config.QUOTA_BURST_PER_KEY),
      workspace,
      person,
      undefined,
      chain,
    ),
    sessions: new RequestQuotas(
      quota('session', config.QUOTA_PER_SESSION, config.QUOTA_BURST_PER_SESSION),
      workspace,
      person,
      undefined,
      chain,
    ),
  };
}

/**
 * A quota's policies in the IETF RateLimit fields: its second (`q` a second) and, with one, its burst
 * reserve (`"<name>-burst"`, `q` more per BURST_WINDOW_S seconds), which serves requests once the
 * second's window is spent; so a client reads both what it may send each second and the reserve.
 */
function policyOf(quota: RequestQuota): string {
  const second = `"${quota.name}";q=${quota.limits.perSecond};w=1`;
  return quota.limits.burst > 0
    ? `${second}, "${quota.name}-burst";q=${quota.limits.burst};w=${BURST_WINDOW_S}`
    : second;
}

/**
 * Where a request left a quota: `r` left in the second's window and, once that is spent and the
 * reserve served (or refused) the request, `r` left in the reserve, so `r=0` for the second beside
 * `r=87` for the reserve says the next requests are still answered (issue 37, item 6).
 */
function rateLimitOf(decision: QuotaDecision): string {
  const second = `"${decision.name}";r=${decision.remaining};t=${decision.resetSeconds}`;
  const { burst } = decision;
  return burst ? `${second}, "${decision.name}-burst";r=${burst.remaining};t=${burst.resetSeconds}` : second;
}

/** The longest a refusal is held before it is answered. */
export const REFUSAL_HOLD_MAX_MS = 500;

/**
 * How long a refusal is held: half the time to the quota's next window, so that a client retrying
 * at once is still refused within the window it exceeded (never served early), at most 0.5 s.
 */
export const refusalHoldMs = (decision: QuotaDecision): number =>
  Math.min(REFUSAL_HOLD_MAX_MS, Math.floor((decision.msBeforeNext ?? 0) / 2));

const WHOSE: Record<string, string> = {
  credential: 'this API key or connection',
  session: 'this session',
  workspace: 'this workspace',
  person: "all the workspaces created by this workspace's creator",
};

function quotaRefusal(decision: QuotaDecision, quota: RequestQuota): AppError {
  const seconds = decision.retryAfterSeconds ?? 1;
  return rateLimitError(
    `Too many requests for ${WHOSE[decision.name] ?? decision.name}: at most ${quota.limits.perSecond} a ` +
      `second, with bursts of up to ${quota.limits.burst} more. Retry after ${seconds} s.`,
    seconds,
    'requestQuotaExceeded',
    `${decision.name}Quota`,
  );
}
