import { createHash, randomInt } from 'node:crypto';

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** docs/api.md#limits: "key value: 64 ASCII letters (a-z, A-Z)". */
export const API_KEY_LENGTH = 64;
export const API_KEY_PATTERN = /^[A-Za-z]{64}$/;

/** A new key value: 64 letters drawn uniformly with a CSPRNG (~365 bits). */
export function generateApiKeyValue(): string {
  let value = '';
  for (let i = 0; i < API_KEY_LENGTH; i++) value += LETTERS[randomInt(LETTERS.length)];
  return value;
}

/** What is stored and looked up: the SHA-256 of the value, hex. */
export function hashApiKeyValue(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
