import type { MigrationInterface, QueryRunner } from 'typeorm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const lowered = (id: unknown) => (typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : id);

interface StoredSource {
  query?: { typeId?: unknown; filters?: { fieldId?: unknown }[] };
  changedFieldIds?: unknown[];
}

/** A stored record source with its type and field ids lowered (frozen here: the rule of this migration). */
function sourceWithLoweredIds(source: StoredSource | null): StoredSource | null {
  if (!source || typeof source !== 'object') return source;
  const query = source.query && {
    ...source.query,
    typeId: lowered(source.query.typeId),
    ...(Array.isArray(source.query.filters)
      ? { filters: source.query.filters.map((filter) => ({ ...filter, fieldId: lowered(filter.fieldId) })) }
      : {}),
  };
  return {
    ...source,
    ...(query ? { query } : {}),
    ...(Array.isArray(source.changedFieldIds)
      ? { changedFieldIds: source.changedFieldIds.map(lowered) }
      : {}),
  };
}

/**
 * One spelling of an id (issue 34, item 5): requests' ids are lowered where they are parsed
 * (src/shared/id-spelling.ts); this lowers the ids saved before, so a webhook filter saved with an
 * upper-case field id is masked for readers who cannot read the field, and a role's restriction
 * written in upper case restricts its field. Only type and field ids change; nothing else does.
 */
export class IdSpelling1764691200000 implements MigrationInterface {
  name = 'IdSpelling1764691200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      UPDATE roles SET
        restricted_field_ids = (
          SELECT coalesce(jsonb_agg(lower(id #>> '{}') ORDER BY position), '[]'::jsonb)
            FROM jsonb_array_elements(restricted_field_ids) WITH ORDINALITY AS ids(id, position)),
        record_access = (
          SELECT coalesce(jsonb_object_agg(lower(key), value), '{}'::jsonb) FROM jsonb_each(record_access))
      WHERE restricted_field_ids::text <> lower(restricted_field_ids::text)
         OR record_access::text <> lower(record_access::text)`);
    const webhooks: {
      id: string;
      record_trigger: StoredSource | null;
      record_sources: StoredSource[] | null;
    }[] = await db.query(
      `SELECT id, record_trigger, record_sources FROM webhooks
          WHERE record_trigger IS NOT NULL OR record_sources IS NOT NULL`,
    );
    for (const webhook of webhooks) {
      const trigger = sourceWithLoweredIds(webhook.record_trigger);
      const sources = webhook.record_sources?.map(sourceWithLoweredIds) ?? null;
      if (
        JSON.stringify(trigger) === JSON.stringify(webhook.record_trigger) &&
        JSON.stringify(sources) === JSON.stringify(webhook.record_sources)
      )
        continue;
      await db.query(`UPDATE webhooks SET record_trigger = $2, record_sources = $3 WHERE id = $1`, [
        webhook.id,
        trigger && JSON.stringify(trigger),
        sources && JSON.stringify(sources),
      ]);
    }
  }

  async down(): Promise<void> {
    // Lowered ids are the same ids: nothing to undo.
  }
}
