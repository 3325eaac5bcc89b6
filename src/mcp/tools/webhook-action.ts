import type { z } from 'zod';
import type { McpActor } from '../mcp-tool';

/**
 * One action of `manage_webhooks`: its own input shape (without `action` and `idempotencyKey`),
 * the view schema of what it answers, and the service call. Adding an action is adding one of
 * these to the list in manage-webhooks.tool.ts; a read can also be offered as its own read-only
 * tool (MCP annotations are per tool, and `manage_webhooks` can delete).
 */
export interface WebhookAction<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject = z.ZodObject,
> {
  action: string;
  /** One sentence: what the action does (shown in the `action` input's description). */
  summary: string;
  input: Input;
  output: Output;
  writes: boolean;
  /** Also offered as a tool of its own, marked read-only. Only for actions that do not write. */
  readOnlyTool?: { name: string; title: string; description: string };
  run(args: z.output<Input>, actor: McpActor): Promise<z.output<Output>>;
}

export const defineAction = <Input extends z.ZodObject, Output extends z.ZodObject>(
  action: WebhookAction<Input, Output>,
): WebhookAction => action as unknown as WebhookAction;
