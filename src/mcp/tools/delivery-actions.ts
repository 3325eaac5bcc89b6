import { z } from 'zod';
import type { DataSource } from 'typeorm';
import type { McpActor } from '../mcp-tool';
import { deliveryNotFound, type DeliveriesService } from '../../deliveries/log/deliveries.service';
import { DeliveriesRepository } from '../../deliveries/deliveries.repository';
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
import { deliveryId, listDeliveriesInput, webhookId } from './webhook-inputs';

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

  return [
    defineAction({
      action: 'list_deliveries',
      summary:
        'The delivery log, newest first, filtered by webhook, text, status, event, URL, dates, event id, record id ' +
        'and delivery id or short id.',
      input: listDeliveriesInput,
      output: deliveryPageSchema,
      writes: false,
      readOnlyTool: {
        name: 'list_deliveries',
        title: 'List deliveries',
        description:
          'Lists deliveries (one event sent to one webhook, with its status, status code and response message), ' +
          'newest first. Filter by webhook id, searchTerm (URL or event name), status (e.g. failed), state ' +
          '(retrying, or failed for good), event name, exact URL, creation dates, eventId, recordId and ' +
          'deliveryIdPrefix (a delivery id or its short id). ' +
          'Read-only. Use get_delivery for the attempts of one delivery.',
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
        'Sends a Delivered or Failed delivery again as a new delivery to the webhook as it is now (same event id). ' +
        'For a retrying one (state retrying) use retry_delivery_now: a resend starts a second chain.',
      input: z.strictObject({ deliveryId }),
      output: deliveryViewSchema,
      writes: true,
      run: async (args, actor) => deliveries.resendById(actor, args.deliveryId),
    }),
    defineAction({
      action: 'retry_delivery_now',
      summary:
        'Runs the next attempt of a retrying delivery (state retrying) now instead of at nextAttemptAt: the next of ' +
        'its ten, in the same delivery. Answers once accepted; get_delivery shows the outcome.',
      input: z.strictObject({ deliveryId }),
      output: deliveryViewSchema,
      writes: true,
      run: async (args, actor) => retryNow.retryNowById(actor, args.deliveryId),
    }),
    defineAction({
      action: 'get_delivery',
      summary: 'One delivery with its attempt history (why it failed) and the event payload you may read.',
      input: z.strictObject({ deliveryId }),
      output: eventDetailsSchema,
      writes: false,
      readOnlyTool: {
        name: 'get_delivery',
        title: 'Get a delivery',
        description:
          'Event Details of one delivery by its id: status, every attempt (time, duration, status code, response ' +
          'message or cause such as a timeout, outcome) and the event payload as you may read it now. Read-only. ' +
          'A failed delivery can be resent with manage_webhooks action resend_delivery once the cause is fixed.',
      },
      run: async (args, actor) =>
        deliveries.details(actor, await webhookOf(actor, args.deliveryId), args.deliveryId),
    }),
    defineAction({
      action: 'send_test_event',
      summary:
        "Sends a sample of one of the webhook's events (made-up values, data.test: true) through the normal delivery " +
        '(signed, headers, template, retries); it is listed as a test delivery.',
      input: z.strictObject({
        id: webhookId,
        event: sendTestEventBody.shape.event.describe("Which of the webhook's events to send a sample of."),
      }),
      output: deliveryViewSchema,
      writes: true,
      run: async (args, actor) => testEvents.send(actor, args.id, args.event),
    }),
  ];
}
