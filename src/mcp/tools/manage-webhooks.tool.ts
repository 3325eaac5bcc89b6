import { z } from 'zod';
import type { DataSource } from 'typeorm';
import type { TestEventsService } from '../../deliveries/test-events/test-events.service';
import type { DeliveriesService } from '../../deliveries/log/deliveries.service';
import type { RetryNowService } from '../../deliveries/log/retry-now.service';
import type { ResendBatchesService } from '../../deliveries/resend/resend-batches.service';
import type { NoticesService } from '../../deliveries/alerts/notices.service';
import type { WebhooksService } from '../../webhooks/webhooks.service';
import { defineTool, idempotencyKeyField, jsonResult, type McpTool } from '../mcp-tool';
import { deliveryActions } from './delivery-actions';
import { noticeActions } from './notice-actions';
import { resendBatchActions } from './resend-batch-actions';
import type { WebhookAction } from './webhook-action';
import { webhookActions } from './webhook-actions';

/** The services behind manage_webhooks and its read-only tools. */
export interface WebhookToolDeps {
  dataSource: DataSource;
  webhooks: WebhooksService;
  deliveries: DeliveriesService;
  retryNow: RetryNowService;
  testEvents: TestEventsService;
  resendBatches: ResendBatchesService;
  notices: NoticesService;
}

/**
 * `manage_webhooks` (docs/api.md#mcp-post-apiv1mcp: actions create, list_deliveries,
 * resend_delivery, …), one input shape per action, and its read actions again as read-only tools
 * of their own (listed on read-only connections: mcp-tools.ts).
 */
export function webhookTools(deps: WebhookToolDeps): McpTool[] {
  const actions = [
    ...webhookActions(deps.webhooks),
    ...deliveryActions(deps),
    ...resendBatchActions(deps.resendBatches),
    ...noticeActions(deps.notices),
  ];
  return [manageWebhooksTool(actions), ...actions.flatMap(readOnlyToolOf)];
}

function manageWebhooksTool(actions: WebhookAction[]): McpTool {
  const byName = new Map(actions.map((action) => [action.action, action]));
  // The union has already refused any other action.
  const actionOf = (args: unknown) => byName.get((args as { action: string }).action)!;
  const variants = actions.map((action) =>
    action.input.extend({
      action: z.literal(action.action).describe(action.summary),
      // Accepted on reads too (and ignored there), so a client may always send one.
      idempotencyKey: idempotencyKeyField,
    }),
  );
  const input = z.discriminatedUnion('action', variants as [(typeof variants)[0], ...typeof variants]);
  const outputs = [...new Set(actions.map((action) => action.output))];
  return defineTool({
    name: 'manage_webhooks',
    title: 'Manage webhooks',
    description:
      'Webhooks (signed JSON POSTs of CRM events), their deliveries and your notices: `action` lists what each ' +
      'action does. For record events call get_record_model first (ids, schemaRevision).',
    input,
    output: z.union(outputs as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    writes: (args) => actionOf(args).writes,
    run: async (args, actor) => {
      const { action: _action, ...inputs } = args as { action: string };
      return jsonResult(await actionOf(args).run(inputs, actor));
    },
  });
}

/**
 * A read action as its own tool, for read-only connections, whose clients may run it without asking
 * (annotations are per tool); other connections read through manage_webhooks.
 */
function readOnlyToolOf(action: WebhookAction): McpTool[] {
  if (!action.readOnlyTool || action.writes) return [];
  return [
    defineTool({
      ...action.readOnlyTool,
      input: action.input,
      output: action.output,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      readOnlyConnectionsOnly: true,
      run: async (args, actor) => jsonResult(await action.run(args, actor)),
    }),
  ];
}
