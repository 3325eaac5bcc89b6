import { randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import {
  normalisePassword,
  passwordProblem,
  type PasswordContext,
} from '../../shared/credentials/password.rules';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;
const KEY_LENGTH = 64;
/** Hashes of the NFKC form (src/shared/credentials/password.rules.ts): `scrypt-nfkc$<salt hex>$<hash hex>`. */
const SCHEME = 'scrypt-nfkc';
/** Hashes stored before NFKC: the password as typed. They keep working, and are rehashed on sign-in. */
const LEGACY_SCHEME = 'scrypt';

/** `scrypt-nfkc$<salt hex>$<hash hex>` (docs/app-api.md#passwords-and-sign-in). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(normalisePassword(password), salt, KEY_LENGTH);
  return `${SCHEME}$${salt.toString('hex')}$${hash.toString('hex')}`;
}

/** One scrypt run whatever the stored value, so a refusal takes as long as a check. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, saltHex, hashHex] = stored.split('$');
  const known = (scheme === SCHEME || scheme === LEGACY_SCHEME) && saltHex && hashHex;
  const expected = known ? Buffer.from(hashHex, 'hex') : Buffer.alloc(KEY_LENGTH);
  const typed = scheme === LEGACY_SCHEME ? password : normalisePassword(password);
  const actual = await scrypt(typed, Buffer.from(saltHex ?? '', 'hex'), expected.length);
  return timingSafeEqual(actual, expected) && Boolean(known);
}

/** Whether a stored hash predates NFKC, and should be replaced once the password is proven. */
export const isLegacyHash = (stored: string): boolean => stored.startsWith(`${LEGACY_SCHEME}$`);

/**
 * What an unknown email's sign-in checks against: a hash made once, at start, with the same scrypt
 * parameters as every real one, so an unknown email costs the same work and time as a wrong password.
 */
const dummyHash = hashPassword(randomBytes(32).toString('hex'));
export const dummyPasswordHash = (): Promise<string> => dummyHash;

/**
 * A password a person can type once: 16 letters and digits, without look-alikes (about 92 bits). It
 * follows the password rule like any other; one that happened not to is drawn again.
 */
export function generatePassword(context: PasswordContext = {}): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  for (;;) {
    const password = Array.from({ length: 16 }, () => alphabet[randomInt(alphabet.length)]).join('');
    if (!passwordProblem(password, context)) return password;
  }
}
