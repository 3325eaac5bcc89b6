// Grows one workspace's delivery log to a size, with rows shaped like the ones the service writes:
// each seeded delivery copies a real delivery the running service made (its event's payload, its
// attempt's request headers and body, its response headers) with new ids, spread over the last 30
// days, 0.5 % failed (ten attempts each, the last answering 503), across the workspace's webhooks.
import type { Client } from 'pg';

export interface SeedTemplate {
  workspaceId: string;
  /** The webhooks the deliveries go to, with their URLs. */
  webhooks: { id: string; url: string }[];
  /** A delivery the service made: its id (its event and attempt are copied). */
  deliveryId: string;
}

const CHUNK = 50_000;

/** Adds `count` deliveries (and their events and attempts) in chunks; reports progress. */
export async function seedDeliveries(
  client: Client,
  template: SeedTemplate,
  count: number,
  progress: (done: number) => void,
): Promise<void> {
  for (let done = 0; done < count;) {
    const size = Math.min(CHUNK, count - done);
    await client.query(SEED, [
      template.deliveryId,
      size,
      template.webhooks.map((webhook) => webhook.id),
      template.webhooks.map((webhook) => webhook.url),
    ]);
    done += size;
    progress(done);
  }
}

/** A handful of old deliveries to a URL nothing else uses: what a rare search finds. */
export async function seedRare(
  client: Client,
  template: SeedTemplate,
  url: string,
  count: number,
): Promise<void> {
  await client.query(RARE, [template.deliveryId, count, url]);
}

// One statement per chunk: the ids and times are drawn once (src), then the events, the deliveries
// and their attempts are inserted from them. The template's own rows give every other column.
const SEED = `
  WITH template AS (
    SELECT d.workspace_id, d.event, d.element, d.sources_version, e.cause_id, e.actor_id, e.type_id, e.data,
           a.request_headers, a.request_body, a.request_body_sha256, a.request_body_bytes, a.response_headers,
           a.response_headers_omitted
      FROM deliveries d JOIN record_events e ON e.id = d.event_id
      JOIN delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1 AND a.send = 1
     WHERE d.id = $1
  ), src AS (
    SELECT gen_random_uuid() AS event_id, gen_random_uuid() AS delivery_id, gen_random_uuid() AS record_id,
           i % cardinality($3::uuid[]) + 1 AS hook,
           now() - random() * interval '30 days' AS at,
           random() < 0.005 AS failed
      FROM generate_series(1, $2::integer) AS i
  ), events AS (
    INSERT INTO record_events (id, workspace_id, event, cause_id, actor_id, type_id, record_id, occurred_at, data,
                               dispatched_at)
    SELECT src.event_id, t.workspace_id, t.event, gen_random_uuid(), t.actor_id, t.type_id, src.record_id, src.at,
           jsonb_set(t.data, '{record,ref,recordId}', to_jsonb(src.record_id::text)), src.at
      FROM src, template t
  ), made AS (
    INSERT INTO deliveries (id, workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version,
                            status, status_code, response_message, attempts, workflow_started_at, created_at,
                            updated_at)
    SELECT src.delivery_id, t.workspace_id, ($3::uuid[])[src.hook], src.event_id, t.event, ($4::text[])[src.hook],
           jsonb_set(t.element, '{recordId}', to_jsonb(src.record_id::text)), 'event', t.sources_version,
           CASE WHEN src.failed THEN 'failed' ELSE 'delivered' END, CASE WHEN src.failed THEN 503 ELSE 204 END,
           CASE WHEN src.failed THEN 'Service Unavailable' ELSE 'No Content' END,
           CASE WHEN src.failed THEN 10 ELSE 1 END, src.at, src.at, src.at
      FROM src, template t
  )
  INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code,
                                 response_message, outcome, request_headers, request_body, request_body_sha256,
                                 request_body_bytes, response_headers, response_headers_omitted)
  SELECT src.delivery_id, n, 1, src.at + (n - 1) * interval '1 minute', 12, ($4::text[])[src.hook],
         CASE WHEN src.failed THEN 503 ELSE 204 END,
         CASE WHEN src.failed THEN 'Service Unavailable' ELSE 'No Content' END,
         CASE WHEN NOT src.failed THEN 'delivered' WHEN n = 10 THEN 'failed' ELSE 'retry' END,
         t.request_headers, t.request_body, t.request_body_sha256, t.request_body_bytes, t.response_headers,
         t.response_headers_omitted
    FROM src, template t, generate_series(1, CASE WHEN src.failed THEN 10 ELSE 1 END) AS n`;

const RARE = `
  WITH template AS (
    SELECT d.workspace_id, d.webhook_id, d.event, d.element, e.cause_id, e.actor_id, e.type_id, e.data
      FROM deliveries d JOIN record_events e ON e.id = d.event_id WHERE d.id = $1
  ), src AS (
    SELECT gen_random_uuid() AS event_id, now() - interval '25 days' - i * interval '1 hour' AS at
      FROM generate_series(1, $2::integer) AS i
  ), events AS (
    INSERT INTO record_events (id, workspace_id, event, cause_id, actor_id, type_id, record_id, occurred_at, data,
                               dispatched_at)
    SELECT src.event_id, t.workspace_id, t.event, t.cause_id, t.actor_id, t.type_id, gen_random_uuid(), src.at,
           t.data, src.at
      FROM src, template t
  )
  INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, status, status_code,
                          response_message, attempts, workflow_started_at, created_at, updated_at)
  SELECT t.workspace_id, t.webhook_id, src.event_id, t.event, $3, t.element, 'event', 'delivered', 204, 'No Content',
         1, src.at, src.at, src.at
    FROM src, template t`;
