import { z } from 'zod';
import { decodePaging, encodePage } from '../../http/paging';
import { id } from '../../http/view-schemas';
import { webhookPageSchema, webhookViewSchema } from '../../webhooks/webhook-view';
import type { WebhooksService } from '../../webhooks/webhooks.service';
import { FAILING_AFTER } from '../../shared/deliveries/endpoint-state';
import { defineAction, type WebhookAction } from './webhook-action';
import { listWebhooksInput, rotateSecretInputs, webhookId, webhookInputs } from './webhook-inputs';

/**
 * What a webhook's health says, where an assistant reads it (the action line and get_webhook): the
 * clients we know give the model no outputSchema, so its descriptions are not sent (json-schemas.ts).
 */
const HEALTH =
  `its health: recent outcomes; its endpoint healthy, degraded (latest attempt failed: deliveries ` +
  `wait in the slow lane) or failing (${FAILING_AFTER} failures in a row), with reason and since when`;

/** What delete answers: the webhook that is gone (its past deliveries stay listed). */
export const deletedWebhookSchema = z.object({ id, deleted: z.literal(true) });

/** The webhook actions of manage_webhooks: list, get, create, update, rotate_secret, delete. */
export function webhookActions(webhooks: WebhooksService): WebhookAction[] {
  return [
    defineAction({
      action: 'create',
      summary: 'Creates a webhook.',
      input: z.strictObject(webhookInputs).partial().required({ url: true, events: true }),
      output: webhookViewSchema,
      writes: true,
      run: async (args, actor) => webhooks.create(actor, args, 'mcp'),
    }),
    defineAction({
      action: 'list',
      summary: 'Your workspace’s webhooks, newest first.',
      input: listWebhooksInput,
      output: webhookPageSchema,
      writes: false,
      readOnlyTool: {
        name: 'list_webhooks',
        title: 'List webhooks',
        description:
          'Lists your webhooks, newest first, by URL text and creation or update dates, each with its health ' +
          '(as get_webhook). Read-only.',
      },
      run: async ({ limit, ...query }, actor) =>
        encodePage(await webhooks.list(actor, decodePaging({ ...query, limit }))),
    }),
    defineAction({
      action: 'get',
      summary: `One webhook and ${HEALTH}.`,
      input: z.strictObject({ id: webhookId }),
      output: webhookViewSchema,
      writes: false,
      readOnlyTool: {
        name: 'get_webhook',
        title: 'Get a webhook',
        description: `Reads one webhook (never its secret or header values) and ${HEALTH}. Read-only.`,
      },
      run: async (args, actor) => webhooks.get(actor, args.id),
    }),
    defineAction({
      action: 'update',
      summary:
        'Changes only the fields sent; null clears description, secret, headers, bodyTemplate and recordSources.',
      input: z.strictObject(webhookInputs).partial().extend({ id: webhookId }),
      output: webhookViewSchema,
      writes: true,
      run: async ({ id: target, ...fields }, actor) => webhooks.update(actor, target, fields, 'mcp'),
    }),
    defineAction({
      action: 'rotate_secret',
      summary: 'A new signing secret; the old one also signs webhook-signature for graceHours.',
      input: z.strictObject({ id: webhookId, ...rotateSecretInputs }),
      output: webhookViewSchema,
      writes: true,
      run: async ({ id: target, ...rotation }, actor) => webhooks.rotateSecret(actor, target, rotation),
    }),
    defineAction({
      action: 'delete',
      summary: 'Deletes a webhook for good (its deliveries stay listed).',
      input: z.strictObject({ id: webhookId }),
      output: deletedWebhookSchema,
      writes: true,
      run: async (args, actor) => {
        await webhooks.delete(actor, args.id);
        return { id: args.id, deleted: true as const };
      },
    }),
  ];
}
