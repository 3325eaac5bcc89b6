import type { ComponentSchemas } from '../http/openapi/components';
import { answer, body, FIELD_CODES, type OperationSpec, uuidParam } from '../http/openapi/operation';
import { refusalSchema } from '../http/view-schemas';
import { ingestResultExample, ingestResultSchema } from './messaging-view';
import { providerActivitySchema } from './provider-activity';

export const MESSAGING_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/v1/messaging/inbound/{accountId}',
    operationId: 'ingestProviderActivity',
    summary: 'Inbound activity of a messaging provider',
    description:
      'For messaging providers, not API clients: authenticated by `X-Provider-Signature`, the lowercase hex HMAC-SHA256 of the raw body with the connected account’s signing secret (no API key). A messaging event is stored, and later delivered, only where messaging is enabled and a webhook subscribes to it; a provider `eventId` sent again stores nothing new. Answers at once.',
    tag: 'Messaging',
    public: true,
    pathParams: { accountId: uuidParam('connected account') },
    body: body(providerActivitySchema, {
      eventId: 'evt_123',
      type: 'message.received',
      entityId: 'ent_1',
      threadId: 'thr_1',
    }),
    success: answer(202, 'Accepted: whether an event was stored.', ingestResultSchema, ingestResultExample),
    responses: {
      400: {
        description: 'validation: not a provider activity.',
        schema: refusalSchema,
        customCodes: FIELD_CODES,
      },
      401: {
        description:
          'authentication: customCodes: `providerSignatureInvalid` (a bad signature, or an unknown account).',
        schema: refusalSchema,
        customCodes: ['providerSignatureInvalid'],
      },
    },
  },
];

export const MESSAGING_COMPONENTS: ComponentSchemas = {
  requests: { ProviderActivity: providerActivitySchema },
  responses: { IngestResult: ingestResultSchema },
};
