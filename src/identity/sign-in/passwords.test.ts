import { randomBytes, scryptSync } from 'node:crypto';
import { passwordProblem } from '../../shared/credentials/password.rules';
import { dummyPasswordHash, generatePassword, hashPassword, isLegacyHash, verifyPassword } from './passwords';

describe('passwords', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt-nfkc\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horsE', stored)).resolves.toBe(false);
  });

  it('hashes the NFKC form: the same password typed composed or decomposed, or full-width', async () => {
    const stored = await hashPassword('café Ｔｏｋｙｏ 2024');
    await expect(verifyPassword('cafe\u0301 Tokyo 2024', stored)).resolves.toBe(true);
  });

  it('keeps a hash stored before normalisation working, on the password as it was typed', async () => {
    const salt = randomBytes(16);
    const typed = 'cafe\u0301 password';
    const legacy = `scrypt$${salt.toString('hex')}$${scryptSync(typed, salt, 64).toString('hex')}`;
    expect(isLegacyHash(legacy)).toBe(true);
    expect(isLegacyHash(await hashPassword(typed))).toBe(false);
    await expect(verifyPassword(typed, legacy)).resolves.toBe(true);
    await expect(verifyPassword('cafe password', legacy)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('refuses malformed stored values instead of throwing', async () => {
    await expect(verifyPassword('x', 'plain')).resolves.toBe(false);
    await expect(verifyPassword('', 'scrypt-nfkc$$')).resolves.toBe(false);
  });

  it('has a dummy hash made like every real one, which no password matches by chance', async () => {
    const dummy = await dummyPasswordHash();
    expect(dummy).toMatch(/^scrypt-nfkc\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    expect(await dummyPasswordHash()).toBe(dummy);
    await expect(verifyPassword('password', dummy)).resolves.toBe(false);
  });

  it('generates 16-character one-time passwords that follow the password rule', () => {
    for (let i = 0; i < 200; i++) {
      const password = generatePassword({ email: 'ada@example.com', name: 'Ada' });
      expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
      expect(passwordProblem(password, { email: 'ada@example.com', name: 'Ada' })).toBeUndefined();
    }
  });
});
