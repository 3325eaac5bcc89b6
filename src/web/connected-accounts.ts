// Connected messaging accounts in the web app (docs/messaging.md): the providers offered when
// connecting, and where a provider sends its signed activity. No React here: the page uses these.
import type { Session } from './api';

/** The common providers, offered first; any other provider id can be typed in. */
export const PROVIDERS: readonly { id: string; label: string }[] = [
  { id: 'gmail', label: 'Gmail' },
  { id: 'outlook', label: 'Outlook' },
  { id: 'whatsapp', label: 'WhatsApp' },
  { id: 'linkedin', label: 'LinkedIn' },
  { id: 'slack', label: 'Slack' },
  { id: 'telegram', label: 'Telegram' },
  { id: 'google-calendar', label: 'Google Calendar' },
];

/** The select's value for "a provider not in the list", typed in. */
export const OTHER_PROVIDER = '';

/** messaging.schemas.ts, connectAccountBody. */
export const PROVIDER_MAX = 50;
export const ACCOUNT_ID_MAX = 200;
export const DISPLAY_NAME_MAX = 200;

/** A provider as the page shows it: its label when it is a common one, else its id. */
export function providerLabel(provider: string): string {
  return PROVIDERS.find((item) => item.id === provider)?.label ?? provider;
}

/**
 * The service's public address (PUBLIC_URL), which the session carries as the MCP endpoint
 * `{PUBLIC_URL}/api/v1/mcp`; the page's own origin if it ever does not.
 */
export function publicUrlOf(session: Pick<Session, 'mcpUrl'>, origin = window.location.origin): string {
  const match = /^(.*)\/api\/v1\/mcp$/.exec(session.mcpUrl);
  return match?.[1] || origin;
}

/** `POST` here, signed with `X-Provider-Signature`: the provider's inbound activity for one account. */
export function inboundUrlOf(publicUrl: string, connectedAccountId: string): string {
  return `${publicUrl}/api/v1/messaging/inbound/${encodeURIComponent(connectedAccountId)}`;
}

/** The CLI command that plays the provider of one account locally. */
export function simulateCommandOf(connectedAccountId: string): string {
  return `npm run cli -- messaging simulate --account ${connectedAccountId}`;
}
