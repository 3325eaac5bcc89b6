import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ApiKeyActor } from '../api-keys/api-key-auth';
import { AppError } from '../errors/app-error';
import { issuesFromZod } from '../errors/zod-issues';

/** One MCP tool: its zod input schema is both the advertised JSON Schema and the validation. */
export interface McpTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  annotations: ToolAnnotations;
  run(args: z.infer<Input>, actor: ApiKeyActor): Promise<CallToolResult>;
}

export const defineTool = <Input extends z.ZodObject>(tool: McpTool<Input>): McpTool =>
  tool as unknown as McpTool;

/** `_meta` key that marks a result as holding untrusted, user-written CRM content. */
export const UNTRUSTED_META_KEY = 'crm-webhooks/untrusted-content';

/**
 * A refusal as an MCP tool result (tech-notes.md): the spec's kind and issues in
 * `_meta.failure`, and the message repeated in `content`, which is what the model reads.
 */
export function failureResult(error: AppError): CallToolResult {
  const { kind, issues, retryable } = error.toBody().error;
  const text = issues
    .map(
      (issue) =>
        `${issue.message}${issue.path.length ? ` (at ${issue.path.join('.')})` : ''}${issue.customCode ? ` [${issue.customCode}]` : ''}`,
    )
    .join('\n');
  return {
    isError: true,
    content: [{ type: 'text', text: `Refused (${kind}): ${text}` }],
    _meta: { failure: retryable === undefined ? { kind, issues } : { kind, issues, retryable } },
  };
}

export function validationFailure(error: z.ZodError): CallToolResult {
  return failureResult(new AppError('validation', issuesFromZod(error)));
}
