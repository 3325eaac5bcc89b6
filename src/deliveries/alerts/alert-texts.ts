import type { MailMessage } from '../../mail/mailer';
import { periodText } from '../../shared/alerts/endpoint-alerts';
import type { NoticeKind } from '../../shared/alerts/notices';
import type { Webhook } from '../../webhooks/webhooks.repository';

/** A notice's words: the same in the app and in the e-mail. */
export interface NoticeText {
  kind: NoticeKind;
  title: string;
  message: string;
}

const named = (webhook: Webhook) =>
  webhook.description ? `"${webhook.description}" (${webhook.url})` : webhook.url;

/** The endpoint has just turned Failing (docs/deliveries.md#when-an-endpoint-keeps-failing). */
export function failingText(webhook: Webhook, reason: string | null, autoDisableAfterMs: number): NoticeText {
  const then =
    autoDisableAfterMs > 0
      ? ` If every attempt keeps failing for ${periodText(autoDisableAfterMs)}, the service disables the webhook.`
      : '';
  return {
    kind: 'endpoint.failing',
    title: `Webhook failing: ${webhook.url}`,
    message:
      `Several deliveries in a row to ${named(webhook)} did not arrive (latest: ${reason ?? 'no answer'}). ` +
      `Its deliveries wait and are retried as the schedule says.${then}`,
  };
}

/** The service has disabled the webhook, and why. */
export function disabledText(webhook: Webhook, reason: string): NoticeText {
  return {
    kind: 'endpoint.disabled',
    title: `Webhook disabled: ${webhook.url}`,
    message:
      `The service disabled ${named(webhook)}: ${reason} It receives nothing until it is re-enabled ` +
      '(Re-enable on the Webhooks page, or PATCH enabled: true); deliveries of events meanwhile are not made.',
  };
}

/** The e-mail of a notice, to one recipient, with where to act. */
export function noticeMail(
  to: { email: string; name: string },
  text: NoticeText,
  webhooksPage: string,
): MailMessage {
  return {
    to: to.email,
    subject: text.title,
    text: [`Hello ${to.name},`, '', text.message, '', `Open the webhook: ${webhooksPage}`].join('\n'),
  };
}
