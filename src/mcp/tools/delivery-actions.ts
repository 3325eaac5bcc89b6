import { z } from 'zod';
import type { DataSource } from 'typeorm';
import type { McpActor } from '../mcp-tool';
import { deliveryNotFound, type DeliveriesService } from '../../deliveries/log/deliveries.service';
import { DeliveriesRepository } from '../../deliveries/store';
import {
  deliveryPageSchema,
  deliveryViewSchema,
  eventDetailsSchema,
} from '../../deliveries/log/delivery-view';
import type { RetryNowService } from '../../deliveries/log/retry-now.service';
import type { TestEventsService } from '../../deliveries/test-events/test-events.service';
import { sendTestEventBody } from '../../deliveries/test-events/test-event-request';
import { decodePaging, encodePage } from '../../http/paging';
import { defineAction, type WebhookAction } from './webhook-action';
import { ValidationError } from '../../shared/app-error';
import { isWholeId } from '../../shared/deliveries/delivery-ids';
import { deliveryId, deliveryIdOrShortId, listDeliveriesInput, webhookId } from './webhook-inputs';

/**
 * The delivery actions of manage_webhooks: list_deliveries, get_delivery, resend_delivery, retry_delivery_now,
 * send_test_event.
 */
export function deliveryActions(deps: {
  dataSource: DataSource;
  deliveries: DeliveriesService;
  retryNow: RetryNowService;
  testEvents: TestEventsService;
}): WebhookAction[] {
  const { dataSource, deliveries, retryNow, testEvents } = deps;

  /** A delivery id alone is enough (as for resend): its webhook is looked up in your workspace. */
  const webhookOf = async (actor: McpActor, id: string): Promise<string> => {
    const webhookId = await new DeliveriesRepository(dataSource.manager).webhookIdOf(actor.workspace.id, id);
    if (!webhookId) throw deliveryNotFound();
    return webhookId;
  };

  /**
   * The delivery a whole id or a short id names, found as list_deliveries finds it (deliveryIdPrefix):
   * none is not found; several, a refusal asking for more digits (deliveryIdAmbiguous).
   */
  const deliveryNamed = async (actor: McpActor, reference: string): Promise<string> => {
    if (isWholeId(reference)) return reference.trim().toLowerCase();
    const { data } = await deliveries.list(actor, { idPrefix: reference, limit: 2 });
    if (data.length === 0) throw deliveryNotFound();
    if (data.length > 1) {
      throw ValidationError.of(
        `Several deliveries start with ${reference.trim()}: give more of the id's digits.`,
        'deliveryIdAmbiguous',
        ['deliveryId'],
      );
    }
    return data[0]!.id;
  };

  return [
    defineAction({
      action: 'list_deliveries',
      summary: 'The delivery log, newest first, with filters.',
      input: listDeliveriesInput,
      output: deliveryPageSchema,
      writes: false,
      readOnlyTool: {
        name: 'list_deliveries',
        title: 'List deliveries',
        description:
          'Deliveries (one event to one webhook: status, code, response message), newest first, filtered by the ' +
          'inputs. Read-only; get_delivery shows one with its attempts.',
      },
      run: async (
        { id: webhookId, deliveryUrl: url, deliveryIdPrefix: idPrefix, limit, ...filters },
        actor,
      ) =>
        encodePage(
          await deliveries.list(actor, decodePaging({ ...filters, webhookId, url, idPrefix, limit })),
        ),
    }),
    defineAction({
      action: 'resend_delivery',
      summary:
        'Sends a finished delivery again as a new one (same event id); if retrying, see retry_delivery_now.',
      input: z.strictObject({ deliveryId }),
      output: deliveryViewSchema,
      writes: true,
      run: async (args, actor) => deliveries.resendById(actor, args.deliveryId),
    }),
    defineAction({
      action: 'retry_delivery_now',
      summary: 'Runs a retrying delivery’s next attempt now (one of its ten, same delivery).',
      input: z.strictObject({ deliveryId }),
      output: deliveryViewSchema,
      writes: true,
      run: async (args, actor) => retryNow.retryNowById(actor, args.deliveryId),
    }),
    defineAction({
      action: 'get_delivery',
      summary: 'One delivery with its attempts (why it failed) and payload.',
      input: z.strictObject({ deliveryId: deliveryIdOrShortId }),
      output: eventDetailsSchema,
      writes: false,
      readOnlyTool: {
        name: 'get_delivery',
        title: 'Get a delivery',
        description:
          'One delivery (id or short id) with every attempt (time, duration, status code, response message or cause such as a ' +
          'timeout, outcome) and the payload as you may read it now. Read-only. Once the cause is fixed, resend ' +
          'it with manage_webhooks action resend_delivery.',
      },
      run: async (args, actor) => {
        const id = await deliveryNamed(actor, args.deliveryId);
        return deliveries.details(actor, await webhookOf(actor, id), id);
      },
    }),
    defineAction({
      action: 'send_test_event',
      summary:
        "Sends a sample of one of the webhook's events (made-up values, data.test: true), listed as a test.",
      input: z.strictObject({
        id: webhookId,
        event: sendTestEventBody.shape.event.describe('One the webhook subscribes to.'),
      }),
      output: deliveryViewSchema,
      writes: true,
      run: async (args, actor) => testEvents.send(actor, args.id, args.event),
    }),
  ];
}
