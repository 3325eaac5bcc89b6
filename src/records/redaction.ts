import type { RecordAccess } from '../record-model/record-access';
import type { FieldChange, LinkChange, RecordChange, RelatedRecord } from './record-change';

/** The `data` of a record event as stored in the outbox. */
export interface RecordEventData {
  causeId: string;
  cause: { kind: string; [key: string]: unknown };
  record: Partial<RecordChange> & {
    ref: { typeId: string; recordId: string };
    schemaRevision?: number;
    beforeVersion?: number | null;
    afterVersion?: number | null;
  };
}

const RESTRICTED = { state: 'restricted' } as const;

/**
 * The one redaction of record event payloads by a reader's current access, used by deliveries
 * (the webhook owner) and by Event Details (the viewer): an unreadable record type yields an empty
 * payload; a restricted field's values become `restricted`; a linked record of an unreadable type
 * (or whose display field is restricted) keeps its ref but not its display name.
 */
export function redactRecordEventData(
  data: RecordEventData,
  access: RecordAccess,
): RecordEventData | Record<string, never> {
  if (!access.canReadType(data.record.ref.typeId)) return {};
  const relatedRecord = (record: RelatedRecord): RelatedRecord =>
    access.canReadDisplayOf(record.ref.typeId) ? record : { ref: record.ref, display: null };
  const record = { ...data.record };
  if (record.fields) {
    record.fields = record.fields.map((field): FieldChange =>
      access.isFieldRestricted(field.fieldId) ? { ...field, before: RESTRICTED, after: RESTRICTED } : field,
    );
  }
  if (record.links) {
    record.links = record.links
      .filter((link) => !access.isFieldRestricted(link.fieldId))
      .map((link): LinkChange => ({ ...link, record: relatedRecord(link.record) }));
  }
  return { ...data, record };
}
