// Our rule for web sign-in passwords (the spec covers API keys and webhooks, not people), after NIST
// SP 800-63B-4 (5.1.1.2): length over composition, any Unicode, a blocklist. The one place sign-up,
// change password, the CLI's and ADMIN_PASSWORD's admin password and the web forms read it from.
import { COMMON_PASSWORDS } from './common-passwords';

/** NIST's minimum for a password that is the only factor. */
export const PASSWORD_MIN_LENGTH = 15;
/** Long passphrases are welcome (NIST: at least 64); the cap keeps scrypt's input bounded. */
export const PASSWORD_MAX_LENGTH = 200;
/** What any password field takes in before the rule runs (UTF-16 units), bounding its work. */
export const PASSWORD_INPUT_LIMIT = 1000;
/** The service's own name, a context-specific word (NIST) like the person's email and name. */
export const SERVICE_NAMES = ['crm', 'crm webhooks'];

/** The rule in a sentence, for the forms. */
export const PASSWORD_RULE_HINT =
  `At least ${PASSWORD_MIN_LENGTH} characters, any you like (spaces too). Not a common password, ` +
  'your email or your name. A few unrelated words make a long password that is easy to remember.';

export type PasswordProblem = {
  customCode:
    | 'passwordTooShort'
    | 'passwordTooLong'
    | 'passwordTooCommon'
    | 'passwordContainsEmail'
    | 'passwordContainsName';
  message: string;
};

/** Who the password is for: their own words are refused as a password (NIST: context-specific words). */
export interface PasswordContext {
  email?: string;
  name?: string;
}

/**
 * The form a password is hashed and counted in: NFKC, so the same password typed on another device
 * (composed or decomposed accents, full-width digits) is the same password.
 */
export const normalisePassword = (password: string): string => password.normalize('NFKC');

/** Why a new password is refused, or undefined when it may be used. */
export function passwordProblem(
  password: string,
  context: PasswordContext = {},
): PasswordProblem | undefined {
  const length = [...normalisePassword(password.slice(0, PASSWORD_INPUT_LIMIT + 1))].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return {
      customCode: 'passwordTooShort',
      message: `Use at least ${PASSWORD_MIN_LENGTH} characters: a few unrelated words are easy to remember.`,
    };
  }
  if (length > PASSWORD_MAX_LENGTH || password.length > PASSWORD_INPUT_LIMIT) {
    return { customCode: 'passwordTooLong', message: `Use at most ${PASSWORD_MAX_LENGTH} characters.` };
  }
  const folded = fold(password);
  const email = context.email ? fold(context.email) : '';
  const localPart = context.email ? fold(context.email.split('@')[0]!) : '';
  if ((email && folded.includes(email)) || derivesFromAny(folded, [localPart])) {
    return {
      customCode: 'passwordContainsEmail',
      message: 'Do not build your password from your email address: choose words of your own.',
    };
  }
  if (derivesFromAny(folded, [...nameWords(context.name), ...SERVICE_NAMES.map(fold)])) {
    return {
      customCode: 'passwordContainsName',
      message: "Do not build your password from your name or the service's name: choose other words.",
    };
  }
  if (isPattern(normalisePassword(password).toLowerCase()) || derivesFromAny(folded, COMMON_PASSWORDS)) {
    return {
      customCode: 'passwordTooCommon',
      message:
        'This password is too common or too easy to guess (a known password, repeated or with digits ' +
        'or symbols added). Choose another: a few unrelated words work well.',
    };
  }
  return undefined;
}

/** Lower case letters and digits only: "P@ss word!2024" and "pssword2024" compare alike. */
const fold = (text: string): string =>
  normalisePassword(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** The name whole and each of its words of 3 or more characters. */
const nameWords = (name: string | undefined): string[] =>
  name
    ? [
        fold(name),
        ...name
          .split(/[^\p{L}\p{N}]+/u)
          .map(fold)
          .filter((word) => word.length >= 3),
      ]
    : [];

const DIGITS = /^\p{N}*$/u;

/**
 * Whether the folded password is only `word`: repeated (the last time perhaps cut short), or with
 * digits before or after it (symbols are folded away already). A word of digits only must make up
 * the whole password, so that a long random number is not refused for containing "1234".
 */
function derivesFrom(folded: string, word: string): boolean {
  if (word.length === 0) return false;
  const rest = DIGITS.test(word[0]!) ? folded : folded.replace(/^\p{N}+/u, '');
  if (!rest.startsWith(word)) return false;
  let at = 0;
  while (rest.startsWith(word, at)) at += word.length;
  const tail = rest.slice(at);
  return word.startsWith(tail) || (!DIGITS.test(word) && DIGITS.test(tail));
}

function derivesFromAny(folded: string, words: Iterable<string>): boolean {
  if (folded.length === 0) return false;
  for (const word of words) if (derivesFrom(folded, word)) return true;
  return false;
}

/** Few distinct characters ("aaaaaaaaaaaaaaa", "abababab…") or one run of them ("abcdefghijklmnop"). */
function isPattern(password: string): boolean {
  const points = [...password.replace(/\s+/gu, '')].map((char) => char.codePointAt(0)!);
  if (new Set(points).size < 5) return true;
  const step = points[1]! - points[0]!;
  return Math.abs(step) === 1 && points.every((point, i) => i === 0 || point - points[i - 1]! === step);
}
