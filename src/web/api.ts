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
export type Role = {
  id: string;
  name: string;
  builtin: 'admin' | 'member' | 'viewer' | null;
  isAdmin: boolean;
  apiRead: 'none' | 'all';
  apiCreate: boolean;
  apiEdit: boolean;
  apiDelete: boolean;
  memberCount: number;
};
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
  role: Role;
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
  createApiKey: (input: { name: string; expiresAt?: string }) =>
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
  updateRole: (
    id: string,
    input: Partial<Pick<Role, 'name' | 'apiRead' | 'apiCreate' | 'apiEdit' | 'apiDelete'>>,
  ) => request<Role>('PATCH', `/app/api/roles/${encodeURIComponent(id)}`, input),
};

/** The message to show for a failed action. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
