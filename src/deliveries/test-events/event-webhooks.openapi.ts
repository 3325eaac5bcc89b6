import type { z } from 'zod';
import type { FieldDef } from '../../record-model/field-kinds';
import {
  isOperationalEvent,
  isRecordEvent,
  DELIVERED_EVENTS,
  type DeliveredEvent,
} from '../../shared/events/event-catalog';
import { EVENT_DESCRIPTIONS } from '../../shared/events/event-catalog-descriptions';
import {
  messagingEventEnvelopeSchema,
  operationalEventEnvelopeSchema,
  recordEventEnvelopeSchema,
} from '../engine/envelope-view';
import { testEventData } from './test-event';

const field = (id: string, name: string, kind: FieldDef['kind'], position: number, options?: string[]) => ({
  id,
  typeId: '0f8b6c1e-5d1a-4c3e-9a57-3c2f1d0e9b11',
  name,
  kind,
  config: options ? { options } : {},
  position,
});
const EXAMPLE_TYPE = {
  id: '0f8b6c1e-5d1a-4c3e-9a57-3c2f1d0e9b11',
  name: 'Deals',
  schemaRevision: 7,
  readableFields: [
    field('8a1d2f4e-0b7c-4e59-a1d3-5f6e7a8b9c01', 'Name', 'text', 0),
    field('8a1d2f4e-0b7c-4e59-a1d3-5f6e7a8b9c02', 'Amount', 'number', 1),
    field('8a1d2f4e-0b7c-4e59-a1d3-5f6e7a8b9c03', 'Stage', 'select', 2, ['Lead', 'Won']),
  ],
};
const EXAMPLE_IDS = {
  recordId: '5b3f9a2c-7d41-4e8a-9c0b-1a2b3c4d5e6f',
  causeId: 'c7d8e9f0-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  entityId: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
  accountId: 'a9b8c7d6-e5f4-4a3b-9c2d-1e0f9a8b7c6d',
};

/** A realistic body of `event` (the shape of a test event, without its `test` mark). */
function exampleEnvelope(event: DeliveredEvent) {
  const { test: _test, ...data } = testEventData(event, EXAMPLE_IDS, EXAMPLE_TYPE);
  const record = isRecordEvent(event);
  return {
    event,
    id: '6d0c4b9e-2f3a-4e1b-8c7d-9a0b1c2d3e4f',
    timestamp: '2026-11-23T10:15:30.123Z',
    companyId: '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7',
    actorId: record ? '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a' : null,
    data: record ? { ...data, cause: { kind: 'web' } } : data,
  };
}

export interface EventWebhookSpec {
  event: DeliveredEvent;
  summary: string;
  envelope: z.ZodType;
  example: unknown;
}

/** The OpenAPI `webhooks` entries: one POST per event a webhook can receive (catalog and operational). */
export const EVENT_WEBHOOKS: readonly EventWebhookSpec[] = DELIVERED_EVENTS.map((event) => ({
  event,
  summary: EVENT_DESCRIPTIONS[event],
  envelope: isRecordEvent(event)
    ? recordEventEnvelopeSchema
    : isOperationalEvent(event)
      ? operationalEventEnvelopeSchema
      : messagingEventEnvelopeSchema,
  example: exampleEnvelope(event),
}));
