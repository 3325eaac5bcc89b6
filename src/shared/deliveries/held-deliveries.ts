// An endpoint's held deliveries as its held-deliveries workflow shows them in the Temporal Web UI
// (workflows/held-deliveries.workflow.ts; docs/capacity.md). Pure: the
// workflow, the activities and the tests share these shapes and words.

/** The oldest held deliveries whose ids the workflow's HeldDeliveryIds search attribute lists. */
export const HELD_IDS_SHOWN = 50;
/** Held deliveries counted at most (a count stays cheap however large a dead endpoint's backlog). */
export const HELD_COUNTED_UP_TO = 1_000_000;

/** What the workflow last read of its endpoint. */
export interface HeldSnapshot {
  /** Held deliveries, up to HELD_COUNTED_UP_TO. */
  count: number;
  /** The oldest held, first to start (ids). */
  oldest: string[];
  /** Since when the oldest has waited (ISO 8601), null when none is held. */
  since: string | null;
  /** The endpoint's stored state, as its owner reads it; null when none was stored yet. */
  endpoint: { state: string; reason: string | null; since: string } | null;
  /** When it was read (ISO 8601). */
  readAt: string;
}

/** Where one delivery stands, asked of its endpoint's workflow by id. */
export type HeldLookup =
  | { deliveryId: string; held: true; ahead: number; waitingSince: string }
  | { deliveryId: string; held: false; status: string | null; why: string };

/** What a release by hand started. */
export interface HeldRelease {
  /** The deliveries whose workflows it started (their workflow ids are `delivery-<id>`). */
  started: string[];
  /** Held deliveries of the endpoint left after it. */
  stillHeld: number;
}

const count = (n: number) =>
  n >= HELD_COUNTED_UP_TO ? `${n.toLocaleString('en')}+` : n.toLocaleString('en');

/** The workflow's details in the Web UI (Markdown): how many wait, since when, why, and what to do. */
export function describeHeld(snapshot: HeldSnapshot): string {
  if (snapshot.count === 0) return `**No deliveries held** (read ${snapshot.readAt}).`;
  const endpoint = snapshot.endpoint
    ? `Endpoint **${snapshot.endpoint.state}** since ${snapshot.endpoint.since}` +
      (snapshot.endpoint.reason ? `: ${snapshot.endpoint.reason}` : '')
    : 'Endpoint state not stored yet';
  const listed = snapshot.oldest.slice(0, 5);
  return [
    `**${count(snapshot.count)} ${snapshot.count === 1 ? 'delivery' : 'deliveries'} held** since ${snapshot.since} (read ${snapshot.readAt}).`,
    `${endpoint}.`,
    `Oldest first: ${listed.join(', ')}${snapshot.count > listed.length ? ', …' : ''}`,
    'They start as the endpoint recovers and capacity allows. Update `findHeld` with a delivery id ' +
      'says where it stands; Update `releaseNow` starts them now (`{"deliveryId": "…"}` for one).',
  ].join('\n\n');
}
