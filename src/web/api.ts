// The web app's JSON routes (docs/app-api.md): shapes and one small client for them. The views the
// server describes with zod (its REST views) are imported as types, never copied.
import type {
  DeliveryAttemptView,
  DeliveryPage,
  DeliveryView,
  EventDetails,
} from '../deliveries/log/delivery-view';
import type { DeliveryListQuery, DeliveryStatsQuery } from '../deliveries/log/delivery-query';
import type { DeliveryStatsView } from '../deliveries/log/delivery-stats-view';
import type { WorkspaceHealthView } from '../deliveries/log/workspace-health-view';
import type { SendTestEventBody } from '../deliveries/test-events/test-event-request';
export type { SendTestEventBody };
import type { ResendFailedBody, ResendFailedPreview } from '../deliveries/resend/resend-batch-request';
import type { ResendBatchResultView, ResendBatchView } from '../deliveries/resend/resend-batch-view';
export type { ResendBatchResultView, ResendBatchView, ResendFailedBody, ResendFailedPreview };
import type { ApiKeyView, CreatedApiKey, QuickConnection, Snippet } from '../api-keys/api-key-view';
import type {
  ApiPermissions,
  MemberStatus,
  MemberView,
  ReadAccess,
  RoleRecordAccess,
  RoleView,
  SessionRole,
  SessionView,
  InvitationPreview,
  InvitationView,
  UserView,
  WorkspaceView,
} from '../identity/identity-view';
import type { ConnectedAccountCreated, ConnectedAccountView } from '../messaging/messaging-view';
import type { ConsentAnswer, ConsentDetails, OAuthConnectionView } from '../oauth/oauth-view';
import type { ConsentBody } from '../oauth/oauth.schemas';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiResponse,
} from '../http/openapi/openapi-types';
import type { FieldKind } from '../record-model/field-kinds';
import type { ModelDiscovery, ModelTypeRead } from '../record-model/model-view';
import type { RecordFilterOp, RecordQuery } from '../records/query/record-query';
import type { RecordPage, RecordView } from '../records/record-view';
import type { listRecordsQuery, recordWriteBody } from '../records/records.schemas';
import type { RecordSource, RecordTrigger } from '../webhooks/record-source-schemas';
import type { WebhookPage, WebhookSecrets, WebhookView } from '../webhooks/webhook-view';
import type { NoticeList, NoticeView } from '../deliveries/alerts/notice-view';
export type { NoticeView };
import type {
  createWebhookBody,
  listWebhooksQuery,
  rotateSecretBody,
  updateWebhookBody,
} from '../webhooks/webhooks.schemas';
import type { connectAccountBody } from '../messaging/messaging.schemas';
import type { z } from 'zod';

export type {
  DeliveryView,
  EventDetails,
  FieldKind,
  RecordFilterOp,
  RecordPage,
  RecordQuery,
  RecordSource,
  RecordTrigger,
  RecordView,
  WebhookPage,
  WebhookSecrets,
  WebhookView,
};

export type User = UserView;
export type Workspace = WorkspaceView;
export type Permissions = ApiPermissions;
export type RecordReadAccess = ReadAccess;
export type { RoleRecordAccess, SessionRole };
export type Role = RoleView;
export type RoleChange = Partial<
  Pick<Role, 'name' | 'apiRead' | 'apiCreate' | 'apiEdit' | 'apiDelete'> & RoleRecordAccess
>;
export type { MemberStatus };
export type Member = MemberView;
export type Session = SessionView;
export type Invitation = InvitationView;
export type { InvitationPreview };
export type ApiKey = ApiKeyView;
export type { QuickConnection, Snippet };
export type CreatedKey = CreatedApiKey;

// Connected messaging accounts (app-api.md, "Connected accounts"; docs/messaging.md).
export type ConnectedAccount = ConnectedAccountView;
export type ConnectAccountInput = z.input<typeof connectAccountBody>;
export type { ConnectedAccountCreated };

// OAuth for chat assistants (app-api.md, "Connected apps" and "OAuth consent").
export type ConnectedApp = OAuthConnectionView;
export type { ConsentAnswer, ConsentDetails };

// The record model and records (app-api.md, "Records and the record model";
// src/record-model/model-view.ts and src/records/record-view.ts).
export type Field = ModelTypeRead['type']['fields'][number];
export type RecordTypeSummary = ModelDiscovery['types'][number];
export type RecordType = ModelTypeRead['type'];
export type ValueState = RecordView['values'][string];
export type RelatedRecord = RecordView['links'][string][number];
export type RecordRef = RelatedRecord['ref'];
export type Identity = RecordView['identities'][number];
export type IdentityKind = Identity['kind'];
/** The statuses a record list shows (`status` of `GET …/records/{type}`). */
export type RecordStatus = NonNullable<RecordListQuery['status']>;
/** A create or update: on update only what is sent changes (null clears a value). */
export type RecordWrite = z.input<typeof recordWriteBody>;
export type RecordListQuery = z.input<typeof listRecordsQuery>;

// Webhooks and deliveries (app-api.md, "Webhooks and deliveries"; src/webhooks/webhook-view.ts and
// src/deliveries/log/delivery-view.ts).
// The request types are the server's request schemas (webhooks.schemas.ts) as a client writes them:
// a field added there is in these types at once.
/** A new webhook: url and events required. */
export type WebhookCreate = z.input<typeof createWebhookBody>;
/** An update: only what is sent changes; null clears. */
export type WebhookWrite = z.input<typeof updateWebhookBody>;
/** A secret rotation: the new secret and how long the replaced one keeps signing. */
export type SecretRotation = z.input<typeof rotateSecretBody>;
export type WebhookListQuery = z.input<typeof listWebhooksQuery>;
export type DeliveryStatus = DeliveryView['status'];
export type DeliveryState = DeliveryView['state'];
export type DeliveryElement = NonNullable<DeliveryView['element']>;
export type DeliveryAttempt = DeliveryAttemptView;
export type { DeliveryListQuery };
export type { DeliveryPage };
export type { DeliveryStatsQuery, DeliveryStatsView };

// The OpenAPI 3.1 document of the REST API (GET /api/v1/openapi.json): src/http/openapi/openapi-types.ts.
export type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiResponse };

type ErrorBody = {
  error?: {
    kind?: string;
    issues?: { code?: string; path?: unknown[]; message?: string; customCode?: string }[];
  };
};

export type ApiIssue = { code: string; path: (string | number)[]; message: string; customCode?: string };

/** A refusal from the server, with the first issue's message (the one shown to people). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly kind: string | undefined,
    readonly customCode: string | undefined,
    /** Every issue of the refusal, each naming the field it is about (`path`). */
    readonly issues: ApiIssue[] = [],
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
    const issues = (error?.issues ?? []).map((each) => ({
      ...each,
      code: each.code ?? 'invalid',
      path: Array.isArray(each.path)
        ? each.path.filter((part) => ['string', 'number'].includes(typeof part))
        : [],
      message: each.message ?? message,
    })) as ApiIssue[];
    throw new ApiError(response.status, message, error?.kind, issue?.customCode, issues);
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
  verifyEmail: (token: string) => request<void>('POST', '/app/api/auth/verify-email', { token }),
  resendVerification: () => request<void>('POST', '/app/api/auth/verify-email/resend'),
  requestPasswordReset: (email: string) =>
    request<unknown>('POST', '/app/api/auth/password-reset', { email }),
  completePasswordReset: (input: { token: string; newPassword: string }) =>
    request<void>('POST', '/app/api/auth/password-reset/complete', input),
  invitations: () => request<{ data: Invitation[] }>('GET', '/app/api/invitations'),
  invite: (input: { email: string; roleId: string }) =>
    request<Invitation>('POST', '/app/api/invitations', input),
  revokeInvitation: (id: string) => request<void>('DELETE', `/app/api/invitations/${encodeURIComponent(id)}`),
  previewInvitation: (token: string) =>
    request<InvitationPreview>('POST', '/app/api/invitations/preview', { token }),
  acceptInvitation: (token: string) => request<Session>('POST', '/app/api/invitations/accept', { token }),
  acceptInvitationAsNew: (input: { token: string; name: string; password: string }) =>
    request<Session>('POST', '/app/api/invitations/accept-new', input),
  switchWorkspace: (workspaceId: string) =>
    request<Session>('POST', '/app/api/session/workspace', { workspaceId }),
  completeOnboarding: () => request<void>('POST', '/app/api/onboarding/complete'),
  changePassword: (input: { currentPassword: string; newPassword: string }) =>
    request<void>('POST', '/app/api/auth/password', input),
  createWorkspace: (input: { name: string }) => request<Session>('POST', '/app/api/workspaces', input),

  quickConnections: () => request<{ data: QuickConnection[] }>('GET', '/app/api/quick-connections'),
  apiKeys: () => request<{ data: ApiKey[] }>('GET', '/app/api/api-keys'),
  createApiKey: (input: { name: string; expiresAt?: string; timeZone?: string }) =>
    request<CreatedKey>('POST', '/app/api/api-keys', input),
  createQuickKey: (clientKind: string) =>
    request<CreatedKey>('POST', '/app/api/api-keys/quick', { clientKind }),
  deleteApiKey: (id: string) => request<void>('DELETE', `/app/api/api-keys/${encodeURIComponent(id)}`),

  members: () => request<{ data: Member[] }>('GET', '/app/api/members'),
  updateMember: (userId: string, input: { roleId?: string; status?: MemberStatus }) =>
    request<Member>('PATCH', `/app/api/members/${encodeURIComponent(userId)}`, input),
  removeMember: (userId: string) => request<void>('DELETE', `/app/api/members/${encodeURIComponent(userId)}`),

  roles: () => request<{ data: Role[] }>('GET', '/app/api/roles'),
  createRole: (input: { name: string }) => request<Role>('POST', '/app/api/roles', input),
  updateRole: (id: string, input: RoleChange) =>
    request<Role>('PATCH', `/app/api/roles/${encodeURIComponent(id)}`, input),

  discoverModel: () => request<ModelDiscovery>('POST', '/app/api/model/discover', {}),
  readType: (type: string) => request<ModelTypeRead>('POST', '/app/api/model/read', { type }),
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
  createWebhook: (input: WebhookCreate) => request<WebhookView>('POST', '/app/api/webhooks', input),
  updateWebhook: (id: string, input: WebhookWrite) => request<WebhookView>('PATCH', webhookPath(id), input),
  deleteWebhook: (id: string) => request<void>('DELETE', webhookPath(id)),
  rotateWebhookSecret: (id: string, input: SecretRotation) =>
    request<WebhookView>('POST', `${webhookPath(id)}/rotate-secret`, input),
  webhookSecrets: (id: string) => request<WebhookSecrets>('GET', `${webhookPath(id)}/secrets`),
  /** Your notices of failing and disabled webhooks (docs/deliveries.md#when-an-endpoint-keeps-failing). */
  notices: () => request<NoticeList>('GET', '/app/api/notices'),
  dismissNotice: (id: string) =>
    request<NoticeList>('POST', `/app/api/notices/${encodeURIComponent(id)}/dismiss`),
  deliveries: (query: DeliveryListQuery = {}) =>
    request<DeliveryPage>('GET', `/app/api/webhooks/deliveries${queryString(query)}`),
  /** Deliveries by outcome per hour or day (docs/deliveries.md, "Health and the chart of outcomes"). */
  deliveryStats: (query: DeliveryStatsQuery = {}) =>
    request<DeliveryStatsView>('GET', `/app/api/webhooks/deliveries/stats${queryString(query)}`),
  /** The retired events this workspace's deliveries or webhooks hold (the Deliveries event filter). */
  legacyEvents: () => request<{ events: string[] }>('GET', '/app/api/webhooks/deliveries/legacy-events'),
  /** Every webhook of the workspace counted by its health word, and those in trouble (the Dashboard). */
  workspaceHealth: () => request<WorkspaceHealthView>('GET', '/app/api/webhooks/deliveries/health'),
  delivery: (webhookId: string, deliveryId: string) =>
    request<EventDetails>('GET', `${webhookPath(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}`),
  resendDelivery: (webhookId: string, deliveryId: string) =>
    request<DeliveryView>(
      'POST',
      `${webhookPath(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
    ),
  /** Retry now (docs/deliveries.md): a retrying delivery's next attempt runs now; answered once accepted. */
  retryDeliveryNow: (webhookId: string, deliveryId: string) =>
    request<DeliveryView>(
      'POST',
      `${webhookPath(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/retry-now`,
    ),
  sendTestEvent: (webhookId: string, body: SendTestEventBody) =>
    request<DeliveryView>('POST', `${webhookPath(webhookId)}/test`, body),
  /** "Resend failed since …" (docs/deliveries.md): starts a batch, then read it to follow it. */
  resendFailed: (webhookId: string, body: ResendFailedBody) =>
    request<ResendBatchView>('POST', `${webhookPath(webhookId)}/resend-failed`, body),
  /** How many a batch started now would resend (the dialog's preview; web app only). */
  resendFailedPreview: (webhookId: string, since: string) =>
    request<ResendFailedPreview>(
      'GET',
      `${webhookPath(webhookId)}/resend-failed/preview?since=${encodeURIComponent(since)}`,
    ),
  resendBatch: (webhookId: string, batchId: string) =>
    request<ResendBatchView>(
      'GET',
      `${webhookPath(webhookId)}/resend-batches/${encodeURIComponent(batchId)}`,
    ),

  connectedAccounts: () => request<{ data: ConnectedAccount[] }>('GET', '/app/api/connected-accounts'),
  connectAccount: (input: ConnectAccountInput) =>
    request<ConnectedAccountCreated>('POST', '/app/api/connected-accounts', input),
  disconnectAccount: (id: string) =>
    request<void>('DELETE', `/app/api/connected-accounts/${encodeURIComponent(id)}`),

  connectedApps: () => request<{ data: ConnectedApp[] }>('GET', '/app/api/connected-apps'),
  disconnectApp: (id: string) => request<void>('DELETE', `/app/api/connected-apps/${encodeURIComponent(id)}`),
  consentDetails: (uid: string) => request<ConsentDetails>('GET', `${consentPath(uid)}/details`),
  allowConsent: (uid: string, body: ConsentBody) =>
    request<ConsentAnswer>('POST', `${consentPath(uid)}/allow`, body),
  denyConsent: (uid: string) => request<ConsentAnswer>('POST', `${consentPath(uid)}/deny`),

  /** The public REST API's OpenAPI document (needs no key). */
  openApi: () => request<OpenApiDocument>('GET', '/api/v1/openapi.json'),
};

function recordsPath(type: string, id?: string): string {
  const base = `/app/api/records/${encodeURIComponent(type)}`;
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}`;
}

/** The consent page's routes live under the page (the authorization server's cookie path). */
function consentPath(uid: string): string {
  return `/consent/${encodeURIComponent(uid)}`;
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
