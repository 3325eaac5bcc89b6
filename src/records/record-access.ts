import type { Role } from '../identity/role.entity';

/** What one person can read of records (architecture.md, "roles": per type read none/all, restricted fields). */
export interface RecordAccess {
  canReadType(typeId: string): boolean;
  isFieldRestricted(fieldId: string): boolean;
}

export function recordAccessOf(
  role: Pick<Role, 'isAdmin' | 'defaultRecordAccess' | 'recordAccess' | 'restrictedFieldIds'>,
): RecordAccess {
  if (role.isAdmin) return { canReadType: () => true, isFieldRestricted: () => false };
  const restricted = new Set(role.restrictedFieldIds);
  return {
    canReadType: (typeId) => (role.recordAccess[typeId] ?? role.defaultRecordAccess) === 'all',
    isFieldRestricted: (fieldId) => restricted.has(fieldId),
  };
}
