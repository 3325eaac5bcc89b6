/**
 * The one error family of the service. Features throw these; the REST error middleware and the
 * MCP failure adapter turn them into the spec's refusal body (docs/api.md#errors). Anything else
 * that escapes a handler is an unexpected error: 500 with no body.
 */

/** `error.kind` values of the spec's REST refusal body. */
export type ErrorKind =
  'validation' | 'authentication' | 'authorization' | 'not_found' | 'conflict' | 'unavailable' | 'rate_limit';

/** The spec's status table: one HTTP status per kind. */
export const STATUS_BY_KIND: Readonly<Record<ErrorKind, number>> = {
  validation: 400,
  authentication: 401,
  authorization: 403,
  not_found: 404,
  conflict: 409,
  unavailable: 422,
  rate_limit: 429,
};

/** One entry of `error.issues[]`. `message` is for people; clients branch on `customCode`. */
export interface ErrorIssue {
  code: string;
  path: (string | number)[];
  message: string;
  customCode?: string;
}

export interface AppErrorOptions {
  retryable?: boolean;
  /** Seconds; sent as the `Retry-After` header (rate_limit). */
  retryAfterSeconds?: number;
  /** Which limit refused a rate_limit request, as /metrics counts it (docs/observability.md); never answered. */
  limit?: string;
  cause?: unknown;
}

export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly kind: ErrorKind,
    readonly issues: ErrorIssue[],
    readonly options: AppErrorOptions = {},
  ) {
    super(issues[0]?.message ?? kind, { cause: options.cause });
  }

  get status(): number {
    return STATUS_BY_KIND[this.kind];
  }

  /** The spec's refusal body: `{ error: { kind, issues, retryable? } }`. */
  toBody(): { error: { kind: ErrorKind; issues: ErrorIssue[]; retryable?: boolean } } {
    const error: { kind: ErrorKind; issues: ErrorIssue[]; retryable?: boolean } = {
      kind: this.kind,
      issues: this.issues.map((issue) => ({ ...issue, path: [...issue.path] })),
    };
    if (this.options.retryable !== undefined) error.retryable = this.options.retryable;
    return { error };
  }
}

/** Builds a single-issue error; the issue `code` defaults to the kind. */
function single(
  kind: ErrorKind,
  message: string,
  customCode?: string,
  path: (string | number)[] = [],
  options?: AppErrorOptions,
): AppError {
  const issue: ErrorIssue = { code: kind, path, message };
  if (customCode) issue.customCode = customCode;
  return new AppError(kind, [issue], options);
}

export class ValidationError extends AppError {
  constructor(issues: ErrorIssue[]) {
    super('validation', issues);
  }
  static of(message: string, customCode: string, path: (string | number)[] = []): ValidationError {
    return new ValidationError([{ code: 'invalid', path, message, customCode }]);
  }
}

/**
 * A method the path does not have: 405 with `Allow`. The spec's status table has no kind for it;
 * the body is a `validation` refusal (the request, not the resource, is wrong), and this is the
 * one error whose status is not its kind's.
 */
export class MethodNotAllowedError extends AppError {
  constructor(
    method: string,
    readonly allow: string[],
  ) {
    super('validation', [
      {
        code: 'methodNotAllowed',
        path: [],
        message: `${method} is not allowed here; use ${allow.join(', ')}.`,
        customCode: 'methodNotAllowed',
      },
    ]);
  }

  override get status(): number {
    return 405;
  }
}

export const authenticationError = (message: string, customCode?: string) =>
  single('authentication', message, customCode);

export const authorizationError = (message: string, customCode?: string) =>
  single('authorization', message, customCode);

export const notFoundError = (message: string, customCode?: string) =>
  single('not_found', message, customCode);

export const conflictError = (message: string, customCode?: string, path?: (string | number)[]) =>
  single('conflict', message, customCode, path);

export const unavailableError = (message: string, customCode?: string, retryable?: boolean) =>
  single('unavailable', message, customCode, [], { retryable });

/** `limit` names the limit that refused for /metrics; without it, the customCode does. */
export const rateLimitError = (
  message: string,
  retryAfterSeconds: number,
  customCode?: string,
  limit = customCode,
) => single('rate_limit', message, customCode, [], { retryAfterSeconds, retryable: true, limit });
