import { authorizationError } from '../shared/app-error';
import type { ApiPermissions } from './identity-view';
import type { Role } from './role.entity';

export type { ApiPermissions };

type RoleRow = Pick<Role, 'isAdmin' | 'apiRead' | 'apiCreate' | 'apiEdit' | 'apiDelete'>;

/**
 * The Admin role can do everything. Otherwise the boxes count only on top of Read access All:
 * "Read access None" hides webhooks and API keys whatever is ticked.
 */
export function apiPermissions(role: RoleRow): ApiPermissions {
  if (role.isAdmin) {
    return { apiRead: true, apiCreate: true, apiEdit: true, apiDelete: true, manageWorkspace: true };
  }
  const read = role.apiRead === 'all';
  return {
    apiRead: read,
    apiCreate: read && role.apiCreate,
    apiEdit: read && role.apiEdit,
    apiDelete: read && role.apiDelete,
    manageWorkspace: false,
  };
}

type ApiRight = 'apiRead' | 'apiCreate' | 'apiEdit' | 'apiDelete';

/**
 * The one check behind API keys, webhooks and deliveries: an Inactive member may do nothing there
 * (memberInactive), and the role row must allow the right (insufficientPermissions).
 */
export function assertApiRight(
  actor: { member: { status: string }; permissions: ApiPermissions },
  right: ApiRight,
): void {
  if (actor.member.status !== 'active') {
    throw authorizationError('Inactive members cannot use API keys or webhooks.', 'memberInactive');
  }
  if (!actor.permissions[right]) {
    throw authorizationError('Your role does not allow this on API & Webhooks.', 'insufficientPermissions');
  }
}
