import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from './password.rules';

describe('passwordProblem', () => {
  it.each([
    ['empty', '', 'passwordTooShort'],
    ['one short of the minimum', 'x'.repeat(PASSWORD_MIN_LENGTH - 1), 'passwordTooShort'],
    ['the minimum', 'x'.repeat(PASSWORD_MIN_LENGTH), undefined],
    ['the maximum', 'x'.repeat(PASSWORD_MAX_LENGTH), undefined],
    ['one over the maximum', 'x'.repeat(PASSWORD_MAX_LENGTH + 1), 'passwordTooLong'],
  ])('%s', (_, password, customCode) => {
    expect(passwordProblem(password)?.customCode).toBe(customCode);
  });

  it('says what to do', () => {
    expect(passwordProblem('short')?.message).toBe('Use at least 8 characters.');
  });
});
