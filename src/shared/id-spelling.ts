import { z } from 'zod';

/** A UUID in any case: how type, field and record ids are written. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One spelling of an id (issue 34, item 5). PostgreSQL compares uuids in any case and answers them in
 * lower case, while the rules in JavaScript (restricted fields, masks, record access) compare strings
 * exactly: an id of a hidden field written in upper case passed the restriction and still matched
 * its field where the filter ran. So a request's ids are lowered where it is parsed, and every
 * comparison after sees the spelling the database answers with. A reference that is not UUID-shaped
 * (a field or type named by its name) is left as it is.
 */
export function canonicalId(reference: string): string {
  return UUID_PATTERN.test(reference) ? reference.toLowerCase() : reference;
}

/** A UUID in a request, in its one spelling (lower case). */
export const canonicalUuid = () => z.uuid().toLowerCase();
