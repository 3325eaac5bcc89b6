import { z } from 'zod';
import { decodePaging, encodePage } from '../../http/paging';
import { webhookFields } from '../../webhooks/webhooks.schemas';
import type { DeliveriesService } from '../../deliveries/deliveries.service';
import type { WebhooksService } from '../../webhooks/webhooks.service';
import { listDeliveriesQuery } from '../../deliveries/delivery-query';
import { defineTool, idempotencyKeyField, jsonResult, type McpTool } from '../mcp-tool';

const ACTIONS = ['create', 'list', 'get', 'update', 'delete', 'list_deliveries', 'resend_delivery'] as const;
const NEEDS_ID = new Set(['get', 'update', 'delete']);
const WRITES = new Set(['create', 'update', 'delete', 'resend_delivery']);

/**
 * One flat object with an `action` enum (a discriminated union would be advertised as an empty
 * object: tech-notes.md); the per-action rules are a superRefine.
 */
const input = z
  .strictObject({
    action: z.enum(ACTIONS).describe('What to do.'),
    id: z.uuid().optional().describe('The webhook id (get, update, delete).'),
    ...z.object(webhookFields).partial().shape,
    search: z.string().max(200).optional().describe('list: part of the URL.'),
    searchTerm: z
      .string()
      .max(200)
      .optional()
      .describe('list_deliveries: part of the URL or the event name.'),
    status: listDeliveriesQuery.shape.status.describe('list_deliveries: only deliveries with this status.'),
    event: listDeliveriesQuery.shape.event.describe('list_deliveries: only deliveries of this event name.'),
    deliveryUrl: listDeliveriesQuery.shape.url.describe(
      'list_deliveries: only deliveries sent to exactly this URL.',
    ),
    createdFrom: listDeliveriesQuery.shape.createdFrom.describe(
      'list_deliveries: created at or after (ISO 8601 date or date-time; a date starts at 00:00 UTC).',
    ),
    createdTo: listDeliveriesQuery.shape.createdTo.describe(
      'list_deliveries: created at or before (ISO 8601 date or date-time; a date covers its whole day).',
    ),
    deliveryId: z.uuid().optional().describe('resend_delivery: the delivery to resend.'),
    limit: z.number().int().min(1).max(200).optional(),
    cursor: z.string().max(200).optional(),
    idempotencyKey: idempotencyKeyField,
  })
  .superRefine((args, ctx) => {
    if (NEEDS_ID.has(args.action) && !args.id) {
      ctx.addIssue({
        code: 'custom',
        path: ['id'],
        message: `id is required for ${args.action}.`,
        params: { customCode: 'required' },
      });
    }
    if (args.action === 'resend_delivery' && !args.deliveryId) {
      ctx.addIssue({
        code: 'custom',
        path: ['deliveryId'],
        message: 'deliveryId is required for resend_delivery.',
        params: { customCode: 'required' },
      });
    }
    if (args.action === 'create') {
      for (const key of ['url', 'events'] as const) {
        if (args[key] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `${key} is required for create.`,
            params: { customCode: 'required' },
          });
        }
      }
    }
  });

const result = jsonResult;

/** MCP `manage_webhooks`: the same service, rules and refusals as REST. */
export function manageWebhooksTool(deps: {
  webhooks: WebhooksService;
  deliveries: DeliveriesService;
}): McpTool {
  const { webhooks, deliveries } = deps;
  return defineTool({
    name: 'manage_webhooks',
    title: 'Manage webhooks',
    description:
      'Create, list, get, update and delete the webhooks of your workspace; list_deliveries (newest first, optional ' +
      'searchTerm, status, event, deliveryUrl, createdFrom/createdTo, and id of one webhook) and resend_delivery (deliveryId). Webhooks receive signed JSON POSTs of ' +
      'CRM events. For record events send expectedSchemaRevision from get_record_model. update changes only the ' +
      'fields sent; null clears secret, headers, bodyTemplate and recordSources. delete cannot be undone. ' +
      'Writes take an idempotencyKey: resend a write with the same key.',
    input,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    writes: (args) => WRITES.has(args.action),
    run: async (raw, actor) => {
      const {
        action,
        id,
        search,
        searchTerm,
        status,
        event,
        deliveryUrl,
        createdFrom,
        createdTo,
        deliveryId,
        limit,
        cursor,
        ...fields
      } = raw as z.infer<typeof input>;
      switch (action) {
        case 'list':
          return result(
            encodePage(await webhooks.list(actor, decodePaging({ search, limit: limit ?? 50, cursor }))),
          );
        case 'get':
          return result(await webhooks.get(actor, id!));
        case 'create':
          return result(
            await webhooks.create(actor, fields as Parameters<WebhooksService['create']>[1], 'mcp'),
          );
        case 'update':
          return result(await webhooks.update(actor, id!, fields, 'mcp'));
        case 'list_deliveries':
          return result(
            encodePage(
              await deliveries.list(
                actor,
                decodePaging({
                  ...{ webhookId: id, searchTerm, status, event, url: deliveryUrl, createdFrom, createdTo },
                  ...{ limit: limit ?? 50, cursor },
                }),
              ),
            ),
          );
        case 'resend_delivery':
          return result(await deliveries.resendById(actor, deliveryId!));
        case 'delete':
          await webhooks.delete(actor, id!);
          return { content: [{ type: 'text', text: `Webhook ${id} deleted.` }] };
      }
    },
  });
}
