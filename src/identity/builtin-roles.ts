import type { Role } from './role.entity';

type RoleDefinition = Pick<
  Role,
  'name' | 'builtin' | 'isAdmin' | 'apiRead' | 'apiCreate' | 'apiEdit' | 'apiDelete' | 'defaultRecordAccess'
>;

/** The built-in roles every workspace starts with (docs/api.md#permissions). */
export const BUILTIN_ROLE_DEFINITIONS: readonly RoleDefinition[] = [
  {
    name: 'Admin',
    builtin: 'admin',
    isAdmin: true,
    apiRead: 'all',
    apiCreate: true,
    apiEdit: true,
    apiDelete: true,
    defaultRecordAccess: 'all',
  },
  {
    name: 'Member',
    builtin: 'member',
    isAdmin: false,
    apiRead: 'all',
    apiCreate: true,
    apiEdit: true,
    apiDelete: true,
    defaultRecordAccess: 'all',
  },
  {
    name: 'Viewer',
    builtin: 'viewer',
    isAdmin: false,
    apiRead: 'all',
    apiCreate: false,
    apiEdit: false,
    apiDelete: false,
    defaultRecordAccess: 'all',
  },
];
