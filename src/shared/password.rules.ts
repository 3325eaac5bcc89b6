// Our rule for web sign-in passwords (the spec covers API keys and webhooks, not people): the one
// place sign-up, change password, the CLI's and ADMIN_PASSWORD's admin password and the web forms
// read it from.

export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; the cap only keeps scrypt's input (and the request) bounded. */
export const PASSWORD_MAX_LENGTH = 200;

export type PasswordProblem = {
  customCode: 'passwordTooShort' | 'passwordTooLong';
  message: string;
};

/** Why a new password is refused, or undefined when it may be used. */
export function passwordProblem(password: string): PasswordProblem | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return { customCode: 'passwordTooShort', message: `Use at least ${PASSWORD_MIN_LENGTH} characters.` };
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return { customCode: 'passwordTooLong', message: `Use at most ${PASSWORD_MAX_LENGTH} characters.` };
  }
  return undefined;
}
