import type { FieldDef, StoredValue } from '../../record-model/field-kinds';
import { diffSnapshots, EMPTY_SNAPSHOT, type RecordSnapshot } from '../../records/record-change';
import type { RecordEventData } from '../../records/redaction';
import { isOperationalEvent, isRecordEvent, type DeliveredEvent } from '../../shared/events/event-catalog';
import { operationalSample } from '../alerts/operational-samples';

/** A sample value of each field kind a sample record shows (other kinds are left out). */
function sampleValue(field: FieldDef, typeName: string): StoredValue | undefined {
  switch (field.kind) {
    case 'text':
      return `Sample ${typeName.replace(/s$/, '').toLowerCase()}`;
    case 'number':
      return 42;
    case 'date':
      return '2026-01-01';
    case 'boolean':
      return true;
    case 'email':
      return 'sample@example.com';
    case 'url':
      return 'https://example.com/sample';
    case 'select':
      return field.config.options?.[0];
    default:
      return undefined;
  }
}

const SAMPLE_FIELDS = 3;

/** What a sample record event is built from: a type and the fields its receiver may see. */
export interface SampleRecordType {
  id: string;
  name: string;
  schemaRevision: number;
  /** The type's fields the webhook's record owner may read. */
  readableFields: FieldDef[];
}

/** Versions as the real event carries them (created 0→1, …; afterVersion null on record.deleted). */
const VERSIONS: Record<string, [number | null, number | null]> = {
  'record.created': [0, 1],
  'record.updated': [1, 2],
  'record.deleted': [2, null],
  'record.restored': [3, 4],
  'record.deletedPermanently': [4, null],
};

/**
 * The `data` of a test event (docs/deliveries.md, "Send a test event"): shaped like the real
 * event's, with sample values and fresh ids, and `test: true` so a receiver can tell it apart.
 * Record events describe a made-up record of `type` (no real record is read); messaging events
 * carry made-up provider ids.
 */
export function testEventData(
  event: DeliveredEvent,
  ids: { recordId: string; causeId: string; entityId: string; accountId: string },
  type?: SampleRecordType,
): Record<string, unknown> {
  if (isOperationalEvent(event)) return { test: true, ...operationalSample(event, ids.entityId) };
  if (!isRecordEvent(event)) {
    return {
      test: true,
      entityId: ids.entityId,
      connectedAccountId: ids.accountId,
      provider: 'sample',
      providerMessageId: `sample-${ids.entityId.slice(0, 8)}`,
      threadId: `sample-thread-${ids.entityId.slice(0, 8)}`,
    };
  }
  if (!type) throw new Error('a record test event needs a record type');
  const ref = { typeId: type.id, recordId: ids.recordId };
  const [beforeVersion, afterVersion] = VERSIONS[event]!;
  if (event === 'record.deletedPermanently') {
    return { test: true, causeId: ids.causeId, cause: { kind: 'test' }, record: { ref } };
  }
  const values: RecordSnapshot['values'] = {};
  for (const field of type.readableFields) {
    const value = sampleValue(field, type.name);
    if (value !== undefined) values[field.id] = value;
    if (Object.keys(values).length === SAMPLE_FIELDS) break;
  }
  const filled: RecordSnapshot = { ...EMPTY_SNAPSHOT, values };
  const firstText = type.readableFields.find((field) => field.kind === 'text');
  const renamed: RecordSnapshot = firstText
    ? { ...filled, values: { ...values, [firstText.id]: `${String(values[firstText.id])} (renamed)` } }
    : filled;
  const [before, after] =
    event === 'record.created' || event === 'record.restored'
      ? [EMPTY_SNAPSHOT, filled]
      : event === 'record.deleted'
        ? [filled, EMPTY_SNAPSHOT]
        : [filled, renamed];
  const change = diffSnapshots(before, after, {
    fields: type.readableFields,
    related: (recordId) => ({ ref: { typeId: '', recordId }, display: null }),
    userName: () => null,
  });
  const data: RecordEventData & { test: true } = {
    test: true,
    causeId: ids.causeId,
    cause: { kind: 'test' },
    record: { ref, schemaRevision: type.schemaRevision, beforeVersion, afterVersion, ...change },
  };
  return data as unknown as Record<string, unknown>;
}
