import { generatePassword, hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horsE', stored)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('refuses malformed stored values instead of throwing', async () => {
    await expect(verifyPassword('x', 'plain')).resolves.toBe(false);
  });

  it('generates 16-character one-time passwords', () => {
    expect(generatePassword()).toMatch(/^[A-Za-z0-9]{16}$/);
  });
});
