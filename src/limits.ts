// Limits and schedules of the spec in one place; each cites the line it implements.
// Pure constants: workflow code imports this module too.

/** spec.md, Limits: "Trash retention before permanent deletion: 30 days". */
export const TRASH_RETENTION_DAYS = 30;
export const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * 24 * 60 * 60 * 1000;
