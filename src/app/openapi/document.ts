import { BUSY_MESSAGE } from '../../errors/busy';
import { SchemaComponents } from '../../http/openapi/components';
import {
  AUTHENTICATION_CODES,
  BODY_CODES,
  FIELD_CODES,
  KEY_AUTHORIZATION_CODES,
  QUERY_PARAM_DESCRIPTIONS,
  type OperationSpec,
  type ResponseSpec,
} from '../../http/openapi/operation';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiResponse,
} from '../../http/openapi/openapi-types';
import { COMPONENT_SCHEMAS, EVENT_WEBHOOKS, OPERATIONS } from './paths';
import { refusalSchema } from '../../http/view-schemas';

export type { OpenApiDocument, OpenApiOperation };

const TAGS: OpenApiDocument['tags'] = [
  { name: 'Identity', description: 'Who an API key acts as.' },
  { name: 'Record model', description: 'Record types and fields with stable ids; changes are for Admins.' },
  { name: 'Records', description: 'CRM records; every write emits record events to webhooks.' },
  { name: 'Webhooks', description: 'Signed JSON POSTs of CRM events, retried automatically.' },
  {
    name: 'Events',
    description:
      'What the service POSTs to a webhook URL, one entry per event (the `webhooks` section): the envelope, its headers, and what the answer means.',
  },
  { name: 'Messaging', description: 'Inbound activity of messaging providers (signed by the provider).' },
  { name: 'MCP', description: 'The Model Context Protocol endpoint for AI clients.' },
  { name: 'Meta', description: 'This document.' },
];

const DESCRIPTION = `The REST API of the CRM webhooks service. Every call carries an \`x-api-key\` header; the key acts as its owner, with the owner's current role, in the workspace it was created in.

A refused call answers the \`Refusal\` body with the status of its kind (validation 400, authentication 401, authorization 403, not_found 404, conflict 409, unavailable 422, rate_limit 429 with \`Retry-After\`). Each API key (or OAuth connection) and each workspace has a request quota, a token bucket shared by every API process (by default 20 requests a second per key with bursts of 100 more, 50 a second per workspace with bursts of 250); every keyed answer says where it stands in \`RateLimit-Policy\` and \`RateLimit\`, and a request over it answers 429 \`requestQuotaExceeded\`. Branch on \`customCode\`, never on \`message\`. An unexpected error is a 500 with no body. A path that names no route answers 404 \`routeNotFound\`. A path that exists with other methods answers 405 \`methodNotAllowed\` (kind validation) with an \`Allow\` header. Every answer carries \`X-Request-Id\`.`;

const KIND_BY_STATUS: Record<number, string> = {
  400: 'validation',
  401: 'authentication',
  403: 'authorization',
  404: 'not_found',
  409: 'conflict',
};

const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
const codeList = (codes: readonly string[]) => codes.map((code) => `\`${code}\``).join(', ');

/** Builds the OpenAPI 3.1 document of the REST API from the operations and their zod schemas. */
export function buildOpenApiDocument(): OpenApiDocument {
  const components = new SchemaComponents(COMPONENT_SCHEMAS);
  const paths: OpenApiDocument['paths'] = {};
  for (const spec of OPERATIONS) {
    (paths[spec.path] ??= {})[spec.method] = operation(spec, components);
  }
  return {
    openapi: '3.1.1',
    info: { title: 'CRM webhooks service', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: '/', description: 'This service (PUBLIC_URL)' }],
    tags: TAGS,
    security: [{ apiKey: [] }],
    paths,
    webhooks: eventWebhooks(components),
    components: {
      schemas: components.schemas,
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'An API key created in the web app (Settings → API keys): 64 letters, shown once.',
        },
      },
      headers: {
        RequestId: { description: 'The id of this request in the service logs.', schema: { type: 'string' } },
        RetryAfter: {
          description: 'Seconds to wait before retrying.',
          schema: { type: 'integer', minimum: 0 },
        },
        RateLimitPolicy: {
          description:
            'The request quotas that apply (IETF RateLimit fields): `"credential";q=20;w=1, "credential-burst";q=100;w=10, "workspace";q=50;w=1, …` — q requests per w seconds, per API key or OAuth connection and per workspace; each `-burst` reserve answers requests once its second is spent.',
          schema: { type: 'string' },
        },
        RateLimit: {
          description:
            'Where the caller stands: `"credential";r=17;t=1, …` — r requests left in the current window, which ends in t seconds; once a second is spent (r=0), its `-burst` item follows with what the reserve still answers (`"credential";r=0;t=1, "credential-burst";r=87;t=6`).',
          schema: { type: 'string' },
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 `webhooks` section: the POST a receiver gets for each event (docs/deliveries.md,
 * "What a receiver gets"). Any 2xx delivers; a timeout, no response, 5xx, 408, 425 and 429 are
 * retried; other 4xx are not.
 */
function eventWebhooks(components: SchemaComponents): NonNullable<OpenApiDocument['webhooks']> {
  const header = (name: string, description: string, required: boolean): OpenApiParameter => ({
    name,
    in: 'header',
    required,
    description,
    schema: { type: 'string' },
  });
  const headers = [
    header(
      'X-Webhook-Signature',
      'Present when the webhook has a secret: the lowercase hex HMAC-SHA256 of the raw body as sent, keyed with the secret, no prefix. Compare in constant time.',
      false,
    ),
    header(
      'X-Service-Delivery-Id',
      'The delivery id (a resend is a new delivery of the same event id).',
      true,
    ),
    header(
      'X-Webhook-Event',
      'The event’s name (e.g. `record.created`), on every POST; a custom header of that name is sent instead.',
      true,
    ),
    header(
      'webhook-id',
      'Standard Webhooks, when the webhook has `standardWebhooks` on: the event id (the envelope’s `id`), the same on every retry and resend.',
      false,
    ),
    header(
      'webhook-timestamp',
      'Standard Webhooks, when on: when this attempt was signed, in Unix seconds. The standardwebhooks libraries refuse it more than 5 minutes away from their clock.',
      false,
    ),
    header(
      'webhook-signature',
      'Standard Webhooks, when on and the webhook has a secret: `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the bytes a generated `whsec_<base64>` secret encodes (give the libraries that secret as it is), or with the UTF-8 bytes of a secret of another form (give them `whsec_` + their base64); during a secret rotation’s grace period a second, space-separated `v1,…` signed with the previous secret.',
      false,
    ),
    header('User-Agent', 'The service, e.g. `crm-webhooks/1.0 (+webhooks)`.', true),
  ];
  const entries: NonNullable<OpenApiDocument['webhooks']> = {};
  for (const spec of EVENT_WEBHOOKS) {
    entries[spec.event] = {
      post: {
        operationId: `${spec.event.replace(/[._](\w)/g, (_match, letter: string) => letter.toUpperCase())}Event`,
        summary: spec.event,
        description: `${spec.summary} Without a body template the body is this envelope; with one, the rendered template.`,
        tags: ['Events'],
        security: [],
        parameters: headers,
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: components.ref(spec.envelope, 'output'), example: spec.example },
          },
        },
        responses: {
          '2XX': {
            description: 'Delivered: any 2xx ends the delivery as Delivered. Answer within 5 seconds.',
          },
          '4XX': {
            description:
              'Failed, not retried (400, 401, 403, 404, 422…), except 408, 425 and 429, which are retried.',
          },
          '5XX': {
            description:
              'Failed and retried, as are timeouts and network errors: up to 10 attempts, the first retry after 10 s, doubling, capped at one hour.',
          },
        },
      },
    };
  }
  return entries;
}

function operation(spec: OperationSpec, components: SchemaComponents): OpenApiOperation {
  const parameters = [
    ...pathParameters(spec, components),
    ...queryParameters(spec, components),
    ...(isWrite(spec) ? [idempotencyKeyHeader] : []),
  ];
  const result: OpenApiOperation = {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    tags: [spec.tag],
    ...(spec.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body ? { requestBody: requestBody(spec.body, components) } : {}),
    responses: {},
  };
  const { status, description, schema, example } = spec.success;
  result.responses[status] = response({ description, schema, example }, components);
  const refusals = spec.responses ?? (spec.public ? {} : restRefusals(spec));
  for (const [code, refusal] of Object.entries(refusals))
    result.responses[code] = response(refusal, components);
  result.responses[500] = { description: 'Unexpected error: no body (logged with the X-Request-Id).' };
  return result;
}

function requestBody(
  body: NonNullable<OperationSpec['body']>,
  components: SchemaComponents,
): OpenApiOperation['requestBody'] {
  return {
    // The routes read a missing body as {}: it is required only when {} is refused.
    required: !body.schema.safeParse({}).success,
    content: { 'application/json': { schema: components.ref(body.schema, 'input'), example: body.example } },
  };
}

function response(
  spec: ResponseSpec & { customCodes?: readonly string[] },
  components: SchemaComponents,
): OpenApiResponse {
  return {
    description: spec.description,
    headers: spec.retryAfter
      ? {
          ...requestIdHeader,
          'Retry-After': { $ref: '#/components/headers/RetryAfter' },
          'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
          RateLimit: { $ref: '#/components/headers/RateLimit' },
        }
      : requestIdHeader,
    ...(spec.customCodes?.length ? { 'x-custom-codes': [...spec.customCodes] } : {}),
    ...(spec.schema
      ? {
          content: {
            'application/json': {
              schema: components.ref(spec.schema, 'output'),
              ...(spec.example === undefined ? refusalExamples(spec) : { example: spec.example }),
            },
          },
        }
      : {}),
  };
}

/** One example body per customCode a refusal can carry (the message is for people only). */
function refusalExamples(spec: ResponseSpec & { customCodes?: readonly string[] }) {
  if (spec.schema !== refusalSchema) return {};
  const kind = spec.retryAfter ? 'rate_limit' : undefined;
  const examples: Record<string, { summary: string; value: unknown }> = {};
  const codes = spec.customCodes?.length ? spec.customCodes : [undefined];
  for (const customCode of codes) {
    const refusedKind = kind ?? kindOf(spec.description);
    const issue = {
      code: refusedKind === 'validation' ? 'invalid' : refusedKind,
      path: refusedKind === 'validation' ? ['field'] : [],
      message: customCode ? `Why the call was refused (${customCode}); do not branch on it.` : BUSY_MESSAGE,
      ...(customCode ? { customCode } : {}),
    };
    examples[customCode ?? refusedKind] = {
      summary: customCode ?? refusedKind,
      value: { error: { kind: refusedKind, issues: [issue] } },
    };
  }
  return { examples };
}

/** The kind a refusal description starts with (restRefusals writes `<kind>. customCodes: …`). */
const kindOf = (description: string) => description.split(/[.:]/, 1)[0]!.trim();

/** What a keyed REST call can refuse: its own customCodes plus those every such call shares. */
function restRefusals(
  spec: OperationSpec,
): Record<number, ResponseSpec & { customCodes: readonly string[] }> {
  const parsesBody = spec.method === 'post' || spec.method === 'patch';
  const writes = isWrite(spec);
  const codes: Record<number, readonly string[]> = {
    400: [
      ...(parsesBody ? BODY_CODES : []),
      ...(spec.body || spec.query ? FIELD_CODES : []),
      ...(writes ? ['idempotencyKeyInvalid'] : []),
      ...(spec.refusals?.[400] ?? []),
    ],
    401: AUTHENTICATION_CODES,
    403: [...KEY_AUTHORIZATION_CODES, ...(spec.refusals?.[403] ?? [])],
    404: spec.refusals?.[404] ?? [],
    409: [
      ...(spec.refusals?.[409] ?? []),
      ...(writes ? ['idempotencyKeyReused', 'idempotencyKeyInProgress'] : []),
    ],
  };
  const refusals: Record<number, ResponseSpec & { customCodes: readonly string[] }> = {};
  for (const [status, customCodes] of Object.entries(codes)) {
    if (customCodes.length === 0) continue;
    refusals[Number(status)] = {
      description: `${KIND_BY_STATUS[Number(status)]}. customCodes: ${codeList(customCodes)}.`,
      schema: refusalSchema,
      customCodes,
    };
  }
  const own429 = spec.refusals?.[429] ?? [];
  refusals[429] = {
    description:
      `rate_limit: over the request quota of the API key (or OAuth connection) or of its workspace ` +
      `(customCode requestQuotaExceeded; every answer carries RateLimit-Policy and RateLimit), ` +
      `too many keys that are not valid from the client's address (customCode apiKeyThrottled, ` +
      `decided before the key is looked up, whatever key is sent), ` +
      (own429.length
        ? `this operation's own bound (customCode ${own429.join(', ')}: see its description), `
        : '') +
      `or "${BUSY_MESSAGE}" (no customCode). Wait for Retry-After seconds.`,
    schema: refusalSchema,
    retryAfter: true,
    customCodes: ['requestQuotaExceeded', 'apiKeyThrottled', ...own429],
  };
  return refusals;
}

/** A keyed REST write: it takes an idempotency key (src/http/idempotency/idempotency.ts). */
const isWrite = (spec: OperationSpec) => !spec.public && spec.method !== 'get' && !spec.path.endsWith('/mcp');

const idempotencyKeyHeader: OpenApiParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Send the same key (or an `idempotencyKey` body field) to repeat a write safely: within 24 hours the same key from the same key owner answers the first answer again (`Idempotent-Replayed: true`).',
  schema: { type: 'string', maxLength: 255 },
};

function pathParameters(spec: OperationSpec, components: SchemaComponents): OpenApiParameter[] {
  return Object.entries(spec.pathParams ?? {}).map(([name, { description, schema }]) => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: components.inline(schema, 'input'),
  }));
}

/**
 * One parameter per property of the query schema, as it accepts it. A property that arrives as
 * a string but is parsed into structure (`filters`, a JSON array) is described by its parsed
 * form as `application/json` content.
 */
function queryParameters(spec: OperationSpec, components: SchemaComponents): OpenApiParameter[] {
  if (!spec.query) return [];
  const input = components.inline(spec.query, 'input') as ObjectSchema;
  const output = components.inline(spec.query, 'output') as ObjectSchema;
  return Object.entries(input.properties).map(([name, accepted]) => {
    const parsed = output.properties[name];
    const jsonEncoded = accepted.type === 'string' && parsed !== undefined && parsed.type !== 'string';
    const description =
      spec.queryDescriptions?.[name] ?? QUERY_PARAM_DESCRIPTIONS[name] ?? accepted.description;
    return {
      name,
      in: 'query',
      required: input.required?.includes(name) ?? false,
      ...(description === undefined ? {} : { description }),
      ...(jsonEncoded ? { content: { 'application/json': { schema: parsed } } } : { schema: accepted }),
    };
  });
}

type ObjectSchema = {
  properties: Record<string, JsonSchema & { type?: unknown; description?: string }>;
  required?: string[];
};
