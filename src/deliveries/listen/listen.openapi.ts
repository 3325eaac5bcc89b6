import type { ComponentSchemas } from '../../http/openapi/components';
import { body, uuidParam, type OperationSpec } from '../../http/openapi/operation';
import { listenAnswerBody, listenQuery } from './listen.schemas';

/** `listen` sessions (docs/listen.md): the stream, and the command's local answers. */
export const LISTEN_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/listen',
    operationId: 'listen',
    summary: 'Stream deliveries (listen)',
    description:
      "Needs Create on API & Webhooks. Opens a `listen` session, a temporary endpoint of the key's workspace whose deliveries are built, signed, logged and counted as a webhook's, and answers a `text/event-stream`: `session` (`{ sessionId, events, secret }`, the secret only for a new session), then `delivery` events (`id:` the delivery id; `{ deliveryId, headers, body }`, the request as a webhook gets it), `resumed` after a resumed stream caught up, and `heartbeat` every 15 s. `session` resumes your own session within 60 s of its stream closing; refusals come before the stream opens. A workspace holds at most `LISTEN_SESSIONS_PER_WORKSPACE` sessions at once (10 by default), open streams and those within their 60 s to resume; opening one more answers 429 `listenSessionLimit` with `Retry-After` and creates nothing, while resuming your own still works. See docs/listen.md.",
    tag: 'Webhooks',
    query: listenQuery,
    queryDescriptions: {
      events: 'Events of the catalog, comma-separated; every one when left out.',
      session: 'A session of yours to resume instead of opening one.',
    },
    success: { status: 200, description: 'The stream (`text/event-stream`).' },
    refusals: {
      400: ['webhookEventUnknown', 'webhookEventRetired', 'webhookEventsRequired'],
      404: ['listenSessionNotFound'],
      429: ['listenSessionLimit'],
    },
  },
  {
    method: 'post',
    path: '/api/v1/listen/{sessionId}/answers',
    operationId: 'answerListenDelivery',
    summary: 'Report the local answer to a listen delivery',
    description:
      "What the `listen` command's local receiver answered a delivery of your session: its status code and reason, or the error when it did not answer. It is the attempt's outcome (2xx Delivered; otherwise as a webhook's answer). A session of another workspace, or one that has ended, answers 404 `listenSessionNotFound`.",
    tag: 'Webhooks',
    pathParams: { sessionId: uuidParam('listen session') },
    body: body(listenAnswerBody, {
      deliveryId: '0c9e8f1e-7a4b-4c1e-9d7e-2b1f3c4d5e6f',
      statusCode: 200,
      statusText: 'OK',
    }),
    success: { status: 204, description: 'Taken.' },
    refusals: { 404: ['listenSessionNotFound'] },
  },
];

export const LISTEN_COMPONENTS: ComponentSchemas = {
  requests: { ListenAnswerBody: listenAnswerBody },
};
