import {
  AppError,
  MethodNotAllowedError,
  STATUS_BY_KIND,
  ValidationError,
  authenticationError,
  notFoundError,
  rateLimitError,
  unavailableError,
} from './app-error';

describe('AppError', () => {
  it('maps every kind to the status of the spec table', () => {
    expect(STATUS_BY_KIND).toEqual({
      validation: 400,
      authentication: 401,
      authorization: 403,
      not_found: 404,
      conflict: 409,
      unavailable: 422,
      rate_limit: 429,
    });
  });

  it('renders the spec refusal body with issues and an optional customCode', () => {
    const sut = notFoundError('Webhook not found.', 'webhookNotFound');
    expect(sut.status).toBe(404);
    expect(sut.toBody()).toEqual({
      error: {
        kind: 'not_found',
        issues: [
          { code: 'not_found', path: [], message: 'Webhook not found.', customCode: 'webhookNotFound' },
        ],
      },
    });
  });

  it('omits customCode when none applies and keeps retryable when set', () => {
    expect(authenticationError('Missing key.').toBody().error.issues[0]).not.toHaveProperty('customCode');
    expect(unavailableError('Provider refused.', 'providerRefused', true).toBody().error.retryable).toBe(
      true,
    );
    expect(notFoundError('x').toBody().error).not.toHaveProperty('retryable');
  });

  it('carries several validation issues with their field paths', () => {
    const sut = new ValidationError([
      { code: 'invalid', path: ['url'], message: 'Bad scheme.', customCode: 'urlSchemeNotAllowed' },
      { code: 'invalid', path: ['headers', 'Host'], message: 'Reserved.', customCode: 'headerNameReserved' },
    ]);
    expect(sut.status).toBe(400);
    expect(sut.toBody().error.issues.map((issue) => issue.path)).toEqual([['url'], ['headers', 'Host']]);
  });

  it('keeps Retry-After seconds on rate-limit refusals', () => {
    const sut = rateLimitError('Slow down.', 7);
    expect(sut).toBeInstanceOf(AppError);
    expect(sut.options.retryAfterSeconds).toBe(7);
    expect(sut.status).toBe(429);
  });
});

describe('MethodNotAllowedError', () => {
  it('answers 405 with a validation body naming the allowed methods', () => {
    const error = new MethodNotAllowedError('PUT', ['GET', 'PATCH']);
    expect(error.status).toBe(405);
    expect(error.allow).toEqual(['GET', 'PATCH']);
    expect(error.toBody()).toEqual({
      error: {
        kind: 'validation',
        issues: [
          { code: 'methodNotAllowed', path: [], message: expect.any(String), customCode: 'methodNotAllowed' },
        ],
      },
    });
  });
});
