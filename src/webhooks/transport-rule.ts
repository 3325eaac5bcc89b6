import { ValidationError } from '../shared/app-error';
import { isLoopbackHost } from '../shared/webhooks/webhook-url';

/**
 * docs/api.md#url-and-transport: plain `http://` is fine for any host without custom
 * headers; with custom headers (usually credentials) the URL must be `https://`, or `http://` on
 * localhost, 127.0.0.1 or ::1, so those values never cross a network in clear text.
 * Returns why the pair is refused, or undefined. Never throws: a delivery turns the reason into
 * a 422 failure before sending (docs/deliveries.md#what-a-receiver-gets).
 */
export function transportRuleViolation(url: string, hasHeaders: boolean): string | undefined {
  if (!hasHeaders) return undefined;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol === 'https:') return undefined;
  if (parsed?.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return undefined;
  return 'Custom headers are sent only to https:// URLs, or to http:// on localhost, 127.0.0.1 or ::1.';
}

/** The same rule on save (docs/api.md#url-and-transport): throws a ValidationError on `url`. */
export function checkTransportRule(url: string, hasHeaders: boolean): void {
  const reason = transportRuleViolation(url, hasHeaders);
  if (reason !== undefined) throw ValidationError.of(reason, 'webhookHeadersNeedHttps', ['url']);
}
