import { z } from 'zod';
import { id, timestamp } from '../http/view-schemas';

/**
 * What leaves the service about OAuth (docs/app-api.md, "Connected apps" and "OAuth consent"):
 * never a token, a code or a grant id. Light, so the web app imports the types.
 */
export const oauthConnectionViewSchema = z.object({
  id,
  clientName: z.string(),
  /** Where the client received its authorization code (the redirect URI's host). */
  redirectHost: z.string(),
  /** Connected to read only: the app gets only the MCP tools that change nothing. */
  readOnly: z.boolean(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
});

/** One of the person's workspaces at consent, and why it cannot be chosen (null: it can). */
export const consentWorkspaceSchema = z.object({
  id,
  name: z.string(),
  refusal: z.string().nullable(),
});

/** The consent page: who asks, for what, and where it may act. */
export const consentDetailsSchema = z.object({
  client: z.object({ id: z.string(), name: z.string(), redirectHost: z.string() }),
  /** The MCP endpoint the tokens will be valid for. */
  resource: z.string(),
  workspaces: z.array(consentWorkspaceSchema),
  /** The workspace the web app has open: chosen by default. */
  currentWorkspaceId: id,
});

/** Where the browser goes next: back to the authorization server, which answers the client. */
export const consentAnswerSchema = z.object({ redirectTo: z.string() });

export type OAuthConnectionView = z.output<typeof oauthConnectionViewSchema>;
export type ConsentDetails = z.output<typeof consentDetailsSchema>;
export type ConsentAnswer = z.output<typeof consentAnswerSchema>;
