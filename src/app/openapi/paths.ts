import { z } from 'zod';
import { DELIVERY_COMPONENTS, DELIVERY_OPERATIONS } from '../../deliveries/log/deliveries.openapi';
import { EVENT_WEBHOOKS } from '../../deliveries/test-events/event-webhooks.openapi';
import {
  TEST_EVENT_COMPONENTS,
  TEST_EVENT_OPERATIONS,
} from '../../deliveries/test-events/test-events.openapi';
import {
  RESEND_BATCH_COMPONENTS,
  RESEND_BATCH_OPERATIONS,
} from '../../deliveries/resend/resend-batches.openapi';
import { ME_COMPONENTS, ME_OPERATIONS } from '../../api-keys/me.openapi';
import { LISTEN_COMPONENTS, LISTEN_OPERATIONS } from '../../deliveries/listen/listen.openapi';
import { NOTICE_COMPONENTS, NOTICE_OPERATIONS } from '../../deliveries/alerts/notices.openapi';
import { MCP_COMPONENTS, MCP_OPERATIONS } from '../../mcp/mcp.openapi';
import { MESSAGING_COMPONENTS, MESSAGING_OPERATIONS } from '../../messaging/messaging.openapi';
import { MODEL_COMPONENTS, MODEL_OPERATIONS } from '../../record-model/model.openapi';
import { RECORD_COMPONENTS, RECORD_OPERATIONS } from '../../records/records.openapi';
import { WEBHOOK_COMPONENTS, WEBHOOK_OPERATIONS } from '../../webhooks/webhooks.openapi';
import { refusalSchema } from '../../http/view-schemas';
import type { ComponentSchemas } from '../../http/openapi/components';
import type { OperationSpec } from '../../http/openapi/operation';

export const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string().regex(/^3\.1\.\d+$/),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ description: 'An OpenAPI 3.1 document.' });

/** Every operation under /api/v1 (docs/api.md), in the order the document lists them. */
export const OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    tag: 'Meta',
    public: true,
    success: {
      status: 200,
      description: 'The OpenAPI 3.1 document of the REST API.',
      schema: openApiDocumentSchema,
      example: {
        openapi: '3.1.1',
        info: { title: 'CRM webhooks service', version: '1.0.0' },
        paths: { '/api/v1/me': { get: { operationId: 'getMe', summary: 'Who the key acts as, right now' } } },
      },
    },
  },
  ...ME_OPERATIONS,
  ...MODEL_OPERATIONS,
  ...RECORD_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...DELIVERY_OPERATIONS,
  ...TEST_EVENT_OPERATIONS,
  ...RESEND_BATCH_OPERATIONS,
  ...NOTICE_OPERATIONS,
  ...LISTEN_OPERATIONS,
  ...MESSAGING_OPERATIONS,
  ...MCP_OPERATIONS,
];

/** The named schemas of `components.schemas`: the features' and the refusal and document bodies. */
export const COMPONENT_SCHEMAS: readonly ComponentSchemas[] = [
  RECORD_COMPONENTS,
  WEBHOOK_COMPONENTS,
  MODEL_COMPONENTS,
  DELIVERY_COMPONENTS,
  TEST_EVENT_COMPONENTS,
  RESEND_BATCH_COMPONENTS,
  NOTICE_COMPONENTS,
  LISTEN_COMPONENTS,
  ME_COMPONENTS,
  MESSAGING_COMPONENTS,
  MCP_COMPONENTS,
  { responses: { Refusal: refusalSchema, OpenApiDocument: openApiDocumentSchema } },
];

/** The `webhooks` section: what a receiver gets, per event. */
export { EVENT_WEBHOOKS };
