import { COMMON_PASSWORDS } from './common-passwords';
import {
  PASSWORD_INPUT_LIMIT,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  normalisePassword,
  passwordProblem,
} from './password.rules';

const ada = { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' };

describe('passwordProblem', () => {
  it.each([
    ['empty', '', 'passwordTooShort'],
    ['8 characters, the old minimum', 'tangerin', 'passwordTooShort'],
    ['one short of the minimum', 'violet tangeri', 'passwordTooShort'],
    ['the minimum', 'violet tangerine', undefined],
    ['the maximum', 'violet tangerine '.repeat(12).slice(0, PASSWORD_MAX_LENGTH), undefined],
    [
      'one over the maximum',
      'violet tangerine '.repeat(12).slice(0, PASSWORD_MAX_LENGTH + 1),
      'passwordTooLong',
    ],
    ['far over the input limit', 'violet tangerine '.repeat(100), 'passwordTooLong'],
  ])('length: %s', (_, password, customCode) => {
    expect(passwordProblem(password)?.customCode).toBe(customCode);
  });

  it('counts Unicode code points after NFKC, not UTF-16 units or bytes', () => {
    // 15 emoji are 30 UTF-16 units; 14 are too few whatever their size.
    expect(passwordProblem('🦊🐙🌵🍋🚲🎻🧭🪁🦉🌋🍄🐝🎈🧩🪐')).toBeUndefined();
    expect(passwordProblem('🦊🐙🌵🍋🚲🎻🧭🪁🦉🌋🍄🐝🎈🧩')?.customCode).toBe('passwordTooShort');
    // A ligature counts as the letters it stands for ("ﬃ" is "ffi").
    expect([...normalisePassword('ﬃ')]).toHaveLength(3);
    expect(passwordProblem('ﬃ'.repeat(2) + 'ce ﬂower vase')).toBeUndefined();
    // Accents typed composed or decomposed are the same password.
    expect(normalisePassword('cafe\u0301')).toBe(normalisePassword('caf\u00e9'));
    expect(passwordProblem('Grüße aus Köln, 日本語も')).toBeUndefined();
  });

  it('has no composition rules: lower-case words alone are fine', () => {
    expect(passwordProblem('purple elephant umbrella')).toBeUndefined();
    expect(passwordProblem('violettangerinecloud')).toBeUndefined();
  });

  it.each([
    ['a listed password of 15+ characters', '1qaz2wsx3edc4rfv'],
    ['a listed password in capitals', 'QWERTYUIOP12345'],
    ['a common password repeated', 'passwordpassword'],
    ['a common password repeated, cut short', 'iloveyouiloveyouilo'],
    ['a common password with digits added', 'password12345678'],
    ['a common password with digits and symbols around it', '2024!!Sunshine!!2024'],
    ['a common password with spaces and symbols', 'P a s s w o r d - 1 2 3 4 5 6'],
    ['a run of digits', '123456789012345'],
    ['one character repeated', 'aaaaaaaaaaaaaaaa'],
    ['two characters alternating', 'abababababababab'],
    ['a run of letters', 'abcdefghijklmnop'],
    ['a run backwards', 'zyxwvutsrqponmlk'],
  ])('refuses %s as passwordTooCommon', (_, password) => {
    expect(passwordProblem(password)?.customCode).toBe('passwordTooCommon');
  });

  it('does not refuse a long random number for containing a common one', () => {
    expect(passwordProblem('918273645501234')).toBeUndefined();
    expect(passwordProblem('password manager on my phone')).toBeUndefined();
  });

  it.each([
    ['the email itself', 'ada.lovelace@example.com', 'passwordContainsEmail'],
    ['the email inside a longer password', 'my ada.lovelace@example.com', 'passwordContainsEmail'],
    ['its local part with digits', 'ada.lovelace2024', 'passwordContainsEmail'],
    ['its local part repeated', 'adalovelaceadalovelace', 'passwordContainsEmail'],
    ['the name with symbols', 'Lovelace!!1815!!', 'passwordContainsName'],
    ["the service's name with digits", 'CRM-123456789012', 'passwordContainsName'],
  ])('refuses %s', (_, password, customCode) => {
    expect(passwordProblem(password, ada)?.customCode).toBe(customCode);
  });

  it('allows the same words for someone else', () => {
    expect(passwordProblem('ada.lovelace2024')).toBeUndefined();
    expect(passwordProblem('Lovelace!!1815!!', { email: 'charles@example.com' })).toBeUndefined();
  });

  it('says what to do', () => {
    expect(passwordProblem('short')?.message).toBe(
      'Use at least 15 characters: a few unrelated words are easy to remember.',
    );
    expect(passwordProblem('password12345678')?.message).toMatch(/Choose another/);
  });

  it('keeps the minimum at 15 and the maximum at 200 (NIST: at least 64)', () => {
    expect([PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH]).toEqual([15, 200]);
    expect(PASSWORD_INPUT_LIMIT).toBeGreaterThanOrEqual(PASSWORD_MAX_LENGTH * 4);
  });

  it('accepts what the service generates and what the bench uses', () => {
    // members.service's temporary passwords (src/identity/sign-in/passwords.ts) are 16 random letters and digits.
    expect(passwordProblem('kT7qHw3mZp9xRb2N')).toBeUndefined();
    // bench/stack.ts's ADMIN_PASSWORD.
    expect(passwordProblem('bench-admin-password')).toBeUndefined();
  });

  it('ships a compact list in lower case', () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThan(1000);
    expect(COMMON_PASSWORDS.has('password')).toBe(true);
    expect([...COMMON_PASSWORDS].every((word) => word === word.toLowerCase())).toBe(true);
  });
});
