/** The built-in record types' keys: a workspace starts with one type of each. */
export const BUILTIN_TYPES = ['contact', 'organization', 'deal', 'service', 'task'] as const;
export type BuiltinType = (typeof BUILTIN_TYPES)[number];
