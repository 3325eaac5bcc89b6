/**
 * Finding a delivery by what you know (issue 27, item 3): its id or the short id the web app shows,
 * the event id every receiver gets (the envelope's `id`), or the record it is about. Pure: the
 * server's query schema and the web app's filter fields use the same rules.
 */

/** The hex digits of a short delivery id: what the web app shows, and the fewest a lookup takes. */
export const SHORT_ID_LENGTH = 8;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A whole id (8-4-4-4-12 hex digits, any letter case), as event and record ids are given. */
export const isWholeId = (text: string): boolean => UUID.test(text.trim());

/** The short id the web app shows for a delivery (or a webhook): the first 8 hex digits of its id. */
export const shortId = (id: string): string => id.slice(0, SHORT_ID_LENGTH);

const canonical = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * The ids a delivery id prefix covers, lowest and highest: `1a2b3c4d` covers
 * `1a2b3c4d-0000-0000-0000-000000000000` to `1a2b3c4d-ffff-ffff-ffff-ffffffffffff`. A prefix is
 * 8 to 32 hex digits, any letter case, written plain or as the start of the id's usual form (with
 * its hyphens where the id has them); a whole id covers itself. Anything else is null.
 * PostgreSQL orders uuids byte by byte, which is the order of their hex digits, so the range is
 * what a primary-key range scan reads.
 */
export function deliveryIdRange(text: string): { from: string; to: string } | null {
  const typed = text.trim().toLowerCase();
  const hex = typed.replaceAll('-', '');
  if (!/^[0-9a-f]+$/.test(hex) || hex.length < SHORT_ID_LENGTH || hex.length > 32) return null;
  const from = canonical(hex.padEnd(32, '0'));
  if (typed.includes('-') && !from.startsWith(typed)) return null;
  return { from, to: canonical(hex.padEnd(32, 'f')) };
}

export const DELIVERY_ID_PREFIX_RULE =
  `a delivery id, or its first ${SHORT_ID_LENGTH} or more hex digits (the short id the web app shows), ` +
  'with or without its hyphens';
