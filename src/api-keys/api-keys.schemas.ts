import { z } from 'zod';
import { withCode } from '../errors/zod-issues';
import { API_KEY_NAME_MAX } from '../shared/credentials/api-key.rules';

/** Settings → API keys → Standard API key (docs/api.md#limits: Name 1 to 255 characters, Expires in). */
export const createApiKeyBody = z.object({
  name: z
    .string()
    .trim()
    .refine((name) => name.length >= 1, withCode('apiKeyNameRequired', 'Name is required.'))
    .refine(
      (name) => name.length <= API_KEY_NAME_MAX,
      withCode('apiKeyNameTooLong', `Name can have at most ${API_KEY_NAME_MAX} characters.`),
    ),
  /** A date `YYYY-MM-DD` (the end of that day in `timeZone`) or an exact ISO time; see standardKeyExpiry. */
  expiresAt: z.string().max(40).nullable().optional(),
  /** The IANA time zone a date is read in (the browser's); UTC when absent. */
  timeZone: z.string().max(64).optional(),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBody>;

/** Settings → API keys → Quick connections: the client kind only; name and date are fixed. */
export const createQuickKeyBody = z.strictObject({ clientKind: z.string().min(1).max(64) });
