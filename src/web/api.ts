// The web app's JSON routes (docs/app-api.md): shapes and one small client for them.

export type User = { id: string; email: string; name: string };
export type Workspace = { id: string; name: string; planState: 'none' | 'active' | 'trial_ended' | 'lapsed' };
export type Permissions = {
  apiRead: boolean;
  apiCreate: boolean;
  apiEdit: boolean;
  apiDelete: boolean;
  manageWorkspace: boolean;
};
export type RecordReadAccess = 'none' | 'all';
/** A role's record access (app-api.md, "Record access on roles"). */
export type RoleRecordAccess = {
  /** Types not listed in recordAccess. */
  defaultRecordAccess: RecordReadAccess;
  /** Per record type id. */
  recordAccess: Record<string, RecordReadAccess>;
  /** Values of these fields read `restricted`. */
  restrictedFieldIds: string[];
};
/** A role as the session carries it (without record access or member count). */
export type SessionRole = {
  id: string;
  name: string;
  builtin: 'admin' | 'member' | 'viewer' | null;
  isAdmin: boolean;
  apiRead: 'none' | 'all';
  apiCreate: boolean;
  apiEdit: boolean;
  apiDelete: boolean;
};
export type Role = SessionRole & RoleRecordAccess & { memberCount: number };
export type RoleChange = Partial<
  Pick<Role, 'name' | 'apiRead' | 'apiCreate' | 'apiEdit' | 'apiDelete'> & RoleRecordAccess
>;
export type MemberStatus = 'active' | 'inactive';
export type Member = {
  userId: string;
  email: string;
  name: string;
  roleId: string;
  roleName: string;
  status: MemberStatus;
  createdAt: string;
};
export type Session = {
  user: User;
  workspace: Workspace;
  workspaces: Workspace[];
  member: { status: MemberStatus };
  role: SessionRole;
  permissions: Permissions;
  onboardingPending: boolean;
  deployment: 'self-hosted' | 'cloud';
  mcpUrl: string;
};
export type ApiKey = {
  id: string;
  name: string;
  kind: 'standard' | 'quick';
  clientKind: string | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
};
export type QuickConnection = {
  id: string;
  label: string;
  auth: 'apiKey' | 'oauth';
  instructions: string;
};
export type Snippet = { title: string; language: 'json' | 'text'; text: string };
export type CreatedKey = { apiKey: ApiKey; value: string; snippet: Snippet };

// Connected messaging accounts (app-api.md, "Connected accounts"; docs/messaging.md).
export type ConnectedAccount = {
  id: string;
  provider: string;
  /** The provider's id of the account. */
  accountId: string;
  displayName: string;
  createdAt: string;
};
export type ConnectAccountInput = { provider: string; accountId: string; displayName: string };
/** The signing secret is shown once: the server never returns it again. */
export type ConnectedAccountCreated = { account: ConnectedAccount; signingSecret: string };

// The record model and records (app-api.md, "Records and the record model").
export type FieldKind =
  'text' | 'number' | 'date' | 'boolean' | 'select' | 'email' | 'url' | 'richText' | 'formula' | 'link';
export type Field = {
  id: string;
  typeId: string;
  name: string;
  kind: FieldKind;
  position: number;
  config: { options?: string[]; expression?: string; targetTypeId?: string };
  restricted: boolean;
};
export type RecordTypeSummary = {
  id: string;
  name: string;
  builtin: string | null;
  fieldCount: number;
};
export type RecordType = { id: string; name: string; builtin: string | null; fields: Field[] };
export type ValueState =
  | { state: 'value'; kind: FieldKind; value: unknown }
  | { state: 'missing' }
  | { state: 'restricted' }
  | { state: 'error'; message: string };
export type RecordRef = { typeId: string; recordId: string };
export type RelatedRecord = { ref: RecordRef; display: string | null };
export type IdentityKind = 'email' | 'phone' | 'social';
export type Identity = { kind: IdentityKind; value: string };
export type RecordStatus = 'active' | 'trashed';
export type RecordView = {
  id: string;
  typeId: string;
  version: number;
  status: RecordStatus;
  createdAt: string;
  updatedAt: string;
  trashedAt: string | null;
  values: Record<string, ValueState>;
  links: Record<string, RelatedRecord[]>;
  assignments: { id: string; name: string | null }[];
  identities: Identity[];
};
/** A create or update: on update only what is sent changes (null clears a value). */
export type RecordWrite = {
  values?: Record<string, unknown>;
  links?: Record<string, string[]>;
  assignments?: string[];
  identities?: Identity[];
};
export type RecordPage = { data: RecordView[]; nextCursor: string | null };
export type RecordListQuery = { search?: string; status?: RecordStatus; limit?: number; cursor?: string };

// Webhooks and deliveries (app-api.md, "Webhooks and deliveries"; src/webhooks/webhook-view.ts and
// src/deliveries/delivery-view.ts).
export type RecordFilterOp = 'eq' | 'neq' | 'contains' | 'gt' | 'lt' | 'isEmpty' | 'isNotEmpty' | 'in';
export type RecordQuery = {
  typeId: string;
  search?: string;
  filters?: { fieldId: string; op: RecordFilterOp; value?: unknown }[];
};
export type RecordTrigger = { query: RecordQuery; changedFieldIds?: string[] };
export type RecordSource = RecordTrigger & { events?: string[] };
export type WebhookView = {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  /** The retired events among `events` (older webhooks), when the server reports them. */
  legacyEvents?: string[];
  enabled: boolean;
  hasSecret: boolean;
  headerNames: string[];
  bodyTemplate: string | null;
  recordTrigger: RecordTrigger | null;
  recordSources: RecordSource[] | null;
  recordOwnerUserId: string | null;
  /** The record owner's name: only they or an Admin can change where or how the webhook sends. */
  recordOwnerName: string | null;
  expectedSchemaRevision: number | null;
  createdAt: string;
  updatedAt: string;
};
/** A create (url and events required) or an update (only what is sent changes; null clears). */
export type WebhookWrite = {
  url?: string;
  description?: string | null;
  events?: string[];
  enabled?: boolean;
  secret?: string | null;
  headers?: Record<string, string> | null;
  bodyTemplate?: string | null;
  expectedSchemaRevision?: number;
  recordTrigger?: RecordTrigger | null;
};
export type WebhookSecrets = { secret: string | null; headers: Record<string, string> | null };
export type WebhookListQuery = {
  search?: string;
  createdFrom?: string;
  createdTo?: string;
  updatedFrom?: string;
  updatedTo?: string;
  limit?: number;
  cursor?: string;
};
export type WebhookPage = { data: WebhookView[]; nextCursor: string | null };
export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';
export type DeliveryElement = RecordRef | { entityId: string };
export type DeliveryView = {
  id: string;
  webhookId: string;
  url: string;
  event: string;
  /** A retired type-specific event, shown with a (legacy) marker. */
  legacy: boolean;
  /** The affected record, or a messaging event's provider entity. */
  element: DeliveryElement | null;
  status: DeliveryStatus;
  /** null when no response arrived; 422 when it failed before sending. */
  statusCode: number | null;
  responseMessage: string | null;
  eventId: string;
  attempts: number;
  nextAttemptAt: string | null;
  trigger: 'event' | 'resend';
  resendOf: string | null;
  temporalUrl: string | null;
  createdAt: string;
  updatedAt: string;
};
export type DeliveryAttempt = {
  attempt: number;
  send: number;
  startedAt: string;
  durationMs: number | null;
  url: string;
  statusCode: number | null;
  responseMessage: string;
  outcome: 'sending' | 'unknown' | 'delivered' | 'retry' | 'failed';
};
/** Event Details: the delivery, its attempts, and the payload as the viewer may read it now. */
export type EventDetails = DeliveryView & {
  payload: Record<string, unknown>;
  attemptHistory: DeliveryAttempt[];
};
export type DeliveryListQuery = { searchTerm?: string; limit?: number; cursor?: string };
export type DeliveryPage = { data: DeliveryView[]; nextCursor: string | null };

// The OpenAPI 3.1 document of the REST API (GET /api/v1/openapi.json): the parts the API
// reference page reads. Schemas are JSON Schema objects, read loosely.
export type JsonSchema = { [key: string]: unknown };
export type OpenApiParameter = {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
};
export type OpenApiResponse = {
  description?: string;
  content?: Record<string, { schema?: JsonSchema; example?: unknown }>;
  'x-custom-codes'?: string[];
};
export type OpenApiOperation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: {
    required?: boolean;
    description?: string;
    content?: Record<string, { schema?: JsonSchema; example?: unknown }>;
  };
  responses?: Record<string, OpenApiResponse>;
};
export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema>; securitySchemes?: Record<string, JsonSchema> };
};

type ErrorBody = {
  error?: {
    kind?: string;
    issues?: { code?: string; path?: unknown[]; message?: string; customCode?: string }[];
  };
};

/** A refusal from the server, with the first issue's message (the one shown to people). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly kind: string | undefined,
    readonly customCode: string | undefined,
  ) {
    super(message);
  }
}

let onUnauthorized: (() => void) | undefined;

/** Called when a route answers 401 (the session ended): the app then shows the sign-in page. */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  onUnauthorized = handler;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(
      0,
      'The service cannot be reached. Check your connection and try again.',
      undefined,
      undefined,
    );
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!response.ok) {
    const error = (parsed as ErrorBody | undefined)?.error;
    const issue = error?.issues?.[0];
    const message =
      issue?.message ??
      (response.status === 429
        ? 'The service is busy. Retry the request shortly.'
        : `The request failed (HTTP ${response.status}).`);
    if (response.status === 401 && !path.startsWith('/app/api/auth/')) onUnauthorized?.();
    throw new ApiError(response.status, message, error?.kind, issue?.customCode);
  }
  return parsed as T;
}

export const api = {
  session: () => request<Session>('GET', '/app/api/session'),
  signUp: (input: { name: string; email: string; password: string; workspaceName: string }) =>
    request<Session>('POST', '/app/api/auth/sign-up', input),
  signIn: (input: { email: string; password: string }) =>
    request<Session>('POST', '/app/api/auth/sign-in', input),
  signOut: () => request<void>('POST', '/app/api/auth/sign-out'),
  switchWorkspace: (workspaceId: string) =>
    request<Session>('POST', '/app/api/session/workspace', { workspaceId }),
  completeOnboarding: () => request<void>('POST', '/app/api/onboarding/complete'),

  quickConnections: () => request<{ data: QuickConnection[] }>('GET', '/app/api/quick-connections'),
  apiKeys: () => request<{ data: ApiKey[] }>('GET', '/app/api/api-keys'),
  createApiKey: (input: { name: string; expiresAt?: string; timeZone?: string }) =>
    request<CreatedKey>('POST', '/app/api/api-keys', input),
  createQuickKey: (clientKind: string) =>
    request<CreatedKey>('POST', '/app/api/api-keys/quick', { clientKind }),
  deleteApiKey: (id: string) => request<void>('DELETE', `/app/api/api-keys/${encodeURIComponent(id)}`),

  members: () => request<{ data: Member[] }>('GET', '/app/api/members'),
  addMember: (input: { email: string; name?: string; roleId: string }) =>
    request<{ member: Member; temporaryPassword?: string }>('POST', '/app/api/members', input),
  updateMember: (userId: string, input: { roleId?: string; status?: MemberStatus }) =>
    request<Member>('PATCH', `/app/api/members/${encodeURIComponent(userId)}`, input),
  removeMember: (userId: string) => request<void>('DELETE', `/app/api/members/${encodeURIComponent(userId)}`),

  roles: () => request<{ data: Role[] }>('GET', '/app/api/roles'),
  createRole: (input: { name: string }) => request<Role>('POST', '/app/api/roles', input),
  updateRole: (id: string, input: RoleChange) =>
    request<Role>('PATCH', `/app/api/roles/${encodeURIComponent(id)}`, input),

  discoverModel: () =>
    request<{ schemaRevision: number; types: RecordTypeSummary[] }>('POST', '/app/api/model/discover', {}),
  readType: (type: string) =>
    request<{ schemaRevision: number; type: RecordType }>('POST', '/app/api/model/read', { type }),
  records: (type: string, query: RecordListQuery = {}) =>
    request<RecordPage>('GET', `${recordsPath(type)}${queryString(query)}`),
  record: (type: string, id: string) => request<RecordView>('GET', recordsPath(type, id)),
  createRecord: (type: string, input: RecordWrite) => request<RecordView>('POST', recordsPath(type), input),
  updateRecord: (type: string, id: string, input: RecordWrite) =>
    request<RecordView>('PATCH', recordsPath(type, id), input),
  trashRecord: (type: string, id: string) => request<RecordView>('POST', `${recordsPath(type, id)}/trash`),
  restoreRecord: (type: string, id: string) =>
    request<RecordView>('POST', `${recordsPath(type, id)}/restore`),
  deleteRecord: (type: string, id: string) => request<void>('DELETE', recordsPath(type, id)),

  webhooks: (query: WebhookListQuery = {}) =>
    request<WebhookPage>('GET', `/app/api/webhooks${queryString(query)}`),
  webhook: (id: string) => request<WebhookView>('GET', webhookPath(id)),
  createWebhook: (input: WebhookWrite & { url: string; events: string[] }) =>
    request<WebhookView>('POST', '/app/api/webhooks', input),
  updateWebhook: (id: string, input: WebhookWrite) => request<WebhookView>('PATCH', webhookPath(id), input),
  deleteWebhook: (id: string) => request<void>('DELETE', webhookPath(id)),
  webhookSecrets: (id: string) => request<WebhookSecrets>('GET', `${webhookPath(id)}/secrets`),
  deliveries: (query: DeliveryListQuery = {}) =>
    request<DeliveryPage>('GET', `/app/api/webhooks/deliveries${queryString(query)}`),
  delivery: (webhookId: string, deliveryId: string) =>
    request<EventDetails>('GET', `${webhookPath(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}`),
  resendDelivery: (webhookId: string, deliveryId: string) =>
    request<DeliveryView>(
      'POST',
      `${webhookPath(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
    ),

  connectedAccounts: () => request<{ data: ConnectedAccount[] }>('GET', '/app/api/connected-accounts'),
  connectAccount: (input: ConnectAccountInput) =>
    request<ConnectedAccountCreated>('POST', '/app/api/connected-accounts', input),
  disconnectAccount: (id: string) =>
    request<void>('DELETE', `/app/api/connected-accounts/${encodeURIComponent(id)}`),

  /** The public REST API's OpenAPI document (needs no key). */
  openApi: () => request<OpenApiDocument>('GET', '/api/v1/openapi.json'),
};

function recordsPath(type: string, id?: string): string {
  const base = `/app/api/records/${encodeURIComponent(type)}`;
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}`;
}

function webhookPath(id: string): string {
  return `/app/api/webhooks/${encodeURIComponent(id)}`;
}

/** `?a=1&b=2` of the defined, non-empty values; '' when there are none. */
function queryString(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/** The message to show for a failed action. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
