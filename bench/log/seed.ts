// Grows one workspace's delivery log to a size, shaped like a real one (issue 38): the workspace's
// webhooks share the deliveries in turn; 55 % record.created, 40 % record.updated and 5 % messaging
// events, four of them at 1 % each and the rest rarer (SEEDED_EVENTS); mostly Delivered, 1.5 %
// Failed for good, the deliveries of the last two hours 5 % retrying and of the last minute Pending;
// created over the last 30 days in creation order (row n of N at 30 days × n / N), so the table's
// pages follow time as a live log's do. One INSERT … SELECT generate_series per chunk, deliveries
// only: Event Details opens the real delivery the service made (with its attempt and event).
import type { Client } from 'pg';

export interface SeedTemplate {
  workspaceId: string;
  /** The webhooks the deliveries go to, with their URLs. */
  webhooks: { id: string; url: string }[];
}

/** Each seeded event's share of the log, in ten-thousandths (they add up to 10,000). */
export const SEEDED_EVENTS: readonly [event: string, perTenThousand: number][] = [
  ['record.created', 5_500],
  ['record.updated', 4_000],
  ['messaging.chat.updated', 100],
  ['messaging.message.received', 100],
  ['messaging.email.received', 100],
  ['messaging.message.updated', 100],
  ['messaging.chat.deleted', 50],
  ['messaging.message.reaction', 40],
  ['messaging.relation.created', 9],
  ['messaging.calendar_event.changed', 1],
];

const CHUNK = 250_000;

/**
 * Adds the deliveries `from` to `to` (1-based, of `total`, the log's final size, which fixes each
 * one's time) in chunks; reports progress.
 */
export async function seedDeliveries(
  client: Client,
  template: SeedTemplate,
  range: { from: number; to: number; total: number },
  progress: (done: number) => void,
): Promise<void> {
  const bounds: number[] = [];
  let cumulative = 0;
  for (const [, share] of SEEDED_EVENTS) bounds.push((cumulative += share));
  for (let first = range.from; first <= range.to; first += CHUNK) {
    const last = Math.min(first + CHUNK - 1, range.to);
    await client.query(SEED, [
      template.workspaceId,
      template.webhooks.map((webhook) => webhook.id),
      template.webhooks.map((webhook) => webhook.url),
      SEEDED_EVENTS.map(([event]) => event),
      bounds,
      first,
      last,
      range.total,
    ]);
    progress(last);
  }
}

/** A handful of old deliveries to a URL nothing else uses: what a rare search and url= find. */
export async function seedRare(
  client: Client,
  template: SeedTemplate,
  url: string,
  count: number,
): Promise<void> {
  await client.query(RARE, [template.workspaceId, template.webhooks[0]!.id, url, count]);
}

// Each row's event is the first whose cumulative share ($5) passes a draw out of 10,000; its
// status from another draw; its time from its position n among $8.
const SEED = `
  INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version,
                          status, status_code, response_message, attempts, next_attempt_at, workflow_started_at,
                          created_at, updated_at)
  SELECT $1, ($2::uuid[])[n % cardinality($2::uuid[]) + 1], gen_random_uuid(), ($4::text[])[kind.event],
         ($3::text[])[n % cardinality($2::uuid[]) + 1],
         CASE WHEN kind.event <= 2 THEN jsonb_build_object('typeId', '00000000-0000-4000-8000-000000000001',
                                                           'recordId', gen_random_uuid())
              ELSE jsonb_build_object('entityId', gen_random_uuid()) END,
         'event', 1, state.status, CASE state.status WHEN 'delivered' THEN 204 WHEN 'failed' THEN 503 END,
         CASE state.status WHEN 'delivered' THEN 'No Content' WHEN 'failed' THEN 'Service Unavailable' END,
         CASE WHEN state.retrying THEN 3 WHEN state.status = 'failed' THEN 10 WHEN state.status = 'pending' THEN 0
              ELSE 1 END,
         CASE WHEN state.retrying THEN at.t + interval '10 minutes' END,
         CASE WHEN state.status <> 'pending' THEN at.t END, at.t, at.t
    FROM generate_series($6::integer, $7::integer) AS n,
         LATERAL (SELECT now() - interval '30 days' * (1 - n::float8 / $8::integer) AS t) AS at,
         LATERAL (SELECT floor(random() * 10000) + n * 0 AS event_draw, random() + n * 0 AS draw) AS draws,
         LATERAL (SELECT (SELECT min(i) FROM generate_subscripts($5::integer[], 1) AS i
                           WHERE ($5::integer[])[i] > draws.event_draw) AS event, draws.draw) AS kind,
         LATERAL (SELECT at.t > now() - interval '1 minute' AS pending,
                         at.t BETWEEN now() - interval '2 hours' AND now() - interval '1 minute'
                           AND kind.draw < 0.05 AS retrying) AS recent,
         LATERAL (SELECT CASE WHEN recent.pending THEN 'pending'
                              WHEN recent.retrying OR kind.draw < 0.015 THEN 'failed'
                              ELSE 'delivered' END AS status,
                         recent.retrying) AS state`;

const RARE = `
  INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, status, status_code,
                          response_message, attempts, workflow_started_at, created_at, updated_at)
  SELECT $1, $2, gen_random_uuid(), 'record.created', $3,
         jsonb_build_object('typeId', '00000000-0000-4000-8000-000000000001', 'recordId', gen_random_uuid()),
         'event', 'delivered', 204, 'No Content', 1, at, at, at
    FROM generate_series(1, $4::integer) AS i, LATERAL (SELECT now() - interval '25 days' - i * interval '1 hour' AS at) AS t`;
