import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from '../config';
import { readOrCreateSecret } from '../embedded/postgres';

/**
 * The key that seals secrets at rest: ENCRYPTION_KEY, or in embedded mode a key generated once and
 * kept beside the embedded data, so every later start (and `npm run cli`) reads the same secrets.
 */
export function resolveEncryptionKey(config: Config, embedded: boolean): string {
  if (config.ENCRYPTION_KEY) return config.ENCRYPTION_KEY;
  if (!embedded) {
    throw new ConfigError(
      'Invalid configuration: ENCRYPTION_KEY is required in external mode (64 hex characters)',
    );
  }
  mkdirSync(config.DATA_DIR, { recursive: true, mode: 0o755 });
  return readOrCreateSecret(join(config.DATA_DIR, 'encryption-key'), 32);
}
