import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ApiKeyActor } from '../api-keys/api-key-auth';
import type { OAuthActor } from '../oauth/oauth-token-auth';

/** Who calls the MCP endpoint: a key's owner, or the person who connected an OAuth client. */
export type McpActor = ApiKeyActor | OAuthActor;
import { AppError, unavailableError } from '../shared/app-error';
import { issuesFromZod } from '../errors/zod-issues';
import { IDEMPOTENCY_KEY_MAX } from '../http/idempotency/idempotency';
import { idHints } from './id-hints';
import { untrusted } from './markdown';

/**
 * One MCP tool: its zod input schema is both the advertised JSON Schema and the validation; its
 * output schema, when it answers `structuredContent`, is the view schema that value is made from.
 */
export interface McpTool<Input extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: Input;
  /** Advertised as `outputSchema`: every successful call's `structuredContent` matches it. */
  output?: z.ZodType;
  annotations: ToolAnnotations;
  /** Listed (and callable) only on read-only connections (`X-MCP-Readonly: true`, mcp-tools.ts). */
  readOnlyConnectionsOnly?: boolean;
  /**
   * Whether this call writes, so that its `idempotencyKey` applies (default: not read-only).
   * The server strips `idempotencyKey` before `run`.
   */
  writes?(args: z.infer<Input>): boolean;
  run(args: z.infer<Input>, actor: McpActor): Promise<CallToolResult>;
}

/** The `idempotencyKey` of write tools (docs/api.md#idempotent-writes). */
export const idempotencyKeyField = z
  .string()
  .min(1)
  .max(IDEMPOTENCY_KEY_MAX)
  .optional()
  .describe(
    'Any unique string: a write sent again with it within 24 h gets the first answer instead of writing twice.',
  );

export const defineTool = <Input extends z.ZodType>(tool: McpTool<Input>): McpTool =>
  tool as unknown as McpTool;

/** `_meta` key that marks a result as holding untrusted, user-written CRM content. */
export const UNTRUSTED_META_KEY = 'crm-webhooks/untrusted-content';

/**
 * A refusal as an MCP tool result (docs/api.md#mcp-post-apiv1mcp): the spec's kind and issues in
 * `_meta.failure`, and the message repeated in `content`, which is what the model reads, with
 * where to find the ids it is about (id-hints.ts).
 */
export function failureResult(error: AppError): CallToolResult {
  const { kind, issues, retryable } = error.toBody().error;
  const text = issues
    .map(
      (issue) =>
        `${issue.message}${issue.path.length ? ` (at ${issue.path.join('.')})` : ''}${issue.customCode ? ` [${issue.customCode}]` : ''}`,
    )
    .join('\n');
  const hints = idHints(issues);
  return {
    isError: true,
    content: [{ type: 'text', text: [`Refused (${kind}): ${text}`, ...hints].join('\n') }],
    // When to try again, which REST says in Retry-After: an MCP client may not see the headers.
    _meta: {
      failure: {
        kind,
        issues,
        ...(retryable === undefined ? {} : { retryable }),
        ...(error.options.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: Math.ceil(error.options.retryAfterSeconds) }),
      },
    },
  };
}

/** A JSON value as a tool result (also in `structuredContent`), marked untrusted. */
export const jsonResult = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: untrusted(['```json', JSON.stringify(value, null, 2), '```'].join('\n')) }],
  ...(value && typeof value === 'object' ? { structuredContent: value as Record<string, unknown> } : {}),
  _meta: { [UNTRUSTED_META_KEY]: true },
});

/**
 * What an unexpected error becomes over MCP: the spec gives REST a bare 500, but an MCP tool
 * answers with a result, so it says only that it failed and where the log is (no internals).
 */
export const unexpectedFailure = (requestId: string): AppError =>
  unavailableError(
    `The tool failed unexpectedly; the error was logged with request id ${requestId}. Try again later.`,
    'unexpectedError',
    false,
  );

/** Invalid tool input; an unknown input is named by its own path (zod reports them at the parent). */
export function validationFailure(error: z.ZodError): CallToolResult {
  const issues = issuesFromZod(error).flatMap((issue, index) => {
    const zodIssue = error.issues[index]!;
    if (zodIssue.code !== 'unrecognized_keys') return [issue];
    return zodIssue.keys.map((key) => ({
      ...issue,
      path: [...issue.path, key],
      message: `${key} is not an input here${issue.path.length ? '' : ' (see the tool or action input schema)'}.`,
    }));
  });
  return failureResult(new AppError('validation', issues));
}
