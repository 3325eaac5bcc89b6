import type { z } from 'zod';
import { ValidationError, type ErrorIssue } from '../shared/app-error';
import { withCode } from '../shared/with-code';

/**
 * A rule refused by a zod schema carries its stable customCode in `params.customCode`
 * (see `withCode`). Zod's built-in checks fall back to a code derived from the zod issue.
 */
export function issuesFromZod(error: z.ZodError, pathPrefix: (string | number)[] = []): ErrorIssue[] {
  return error.issues.map((issue) => {
    const params = (issue as { params?: { customCode?: unknown } }).params;
    const customCode = typeof params?.customCode === 'string' ? params.customCode : defaultCustomCode(issue);
    return {
      code: issue.code,
      path: [...pathPrefix, ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))],
      message: issue.message,
      customCode,
    };
  });
}

export function validationErrorFromZod(
  error: z.ZodError,
  pathPrefix: (string | number)[] = [],
): ValidationError {
  return new ValidationError(issuesFromZod(error, pathPrefix));
}

export { withCode };

function defaultCustomCode(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'required' : 'invalidType';
    case 'too_small':
      return 'tooShort';
    case 'too_big':
      return 'tooLong';
    case 'invalid_value':
      return 'invalidValue';
    case 'unrecognized_keys':
      return 'unknownField';
    default:
      return 'invalid';
  }
}
