import { z } from 'zod';
import { id, timestamp } from '../http/view-schemas';

/** A key made in Settings → API keys, or one a quick connection made for its client. */
export const API_KEY_KINDS = ['standard', 'quick'] as const;

/** What leaves the service about a key (docs/app-api.md#shapes): never its value or hash. */
export const apiKeyViewSchema = z.object({
  id,
  name: z.string(),
  kind: z.enum(API_KEY_KINDS),
  /** The quick-connection client kind (e.g. `cursor`), null for a standard key. */
  clientKind: z.string().nullable(),
  createdAt: timestamp,
  expiresAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
});

/** A ready-to-paste configuration for a client. */
export const snippetSchema = z.object({
  title: z.string(),
  language: z.enum(['json', 'text']),
  text: z.string(),
});

/** A client offered under "Quick connections": key-based, or an OAuth connector that needs no key. */
export const quickConnectionSchema = z.object({
  id: z.string(),
  label: z.string(),
  auth: z.enum(['apiKey', 'oauth']),
  instructions: z.string(),
});

export const createdApiKeySchema = z.object({
  apiKey: apiKeyViewSchema,
  /** Shown once; never stored, never returned again. */
  value: z.string(),
  snippet: snippetSchema,
});

export type ApiKeyKind = (typeof API_KEY_KINDS)[number];
export type ApiKeyView = z.output<typeof apiKeyViewSchema>;
export type Snippet = z.output<typeof snippetSchema>;
export type QuickConnection = z.output<typeof quickConnectionSchema>;
export type CreatedApiKey = z.output<typeof createdApiKeySchema>;
