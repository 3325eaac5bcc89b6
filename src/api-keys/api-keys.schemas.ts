import { z } from 'zod';
import { withCode } from '../errors/zod-issues';
import { API_KEY_NAME_MAX } from './api-key.rules';

/** Settings → API keys → Standard API key (spec.md, API key: Name 1 to 255 characters, Expires in). */
export const createApiKeyBody = z.object({
  name: z
    .string()
    .trim()
    .refine((name) => name.length >= 1, withCode('apiKeyNameRequired', 'Name is required.'))
    .refine(
      (name) => name.length <= API_KEY_NAME_MAX,
      withCode('apiKeyNameTooLong', `Name can have at most ${API_KEY_NAME_MAX} characters.`),
    ),
  expiresAt: z.string().max(40).nullable().optional(),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBody>;

/** Settings → API keys → Quick connections: the client kind only; name and date are fixed. */
export const createQuickKeyBody = z.strictObject({ clientKind: z.string().min(1).max(64) });
