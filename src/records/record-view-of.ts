import type { ValueState } from '../record-model/field-kinds';
import type { TypeModel } from '../record-model/model.service';
import type { RecordAccess } from '../record-model/record-access';
import { valueState } from '../record-model/values';
import type { CrmRecord } from './crm-record.entity';
import type { RecordSnapshot, RelatedRecord } from './record-change';
import type { RecordView } from './record-view';

/** What a reader sees of a record (REST, MCP, web app), redacted by their access. */
export function recordView(
  record: CrmRecord,
  type: TypeModel,
  snapshot: RecordSnapshot,
  access: RecordAccess,
  lookups: { related: Map<string, RelatedRecord>; userNames: Map<string, string> },
): RecordView {
  const values: Record<string, ValueState> = {};
  const links: Record<string, RelatedRecord[]> = {};
  for (const field of type.fields) {
    const restricted = access.isFieldRestricted(field.id);
    if (field.kind === 'link') {
      if (restricted) continue;
      links[field.id] = (snapshot.links[field.id] ?? []).map((id) => {
        const related = lookups.related.get(id) ?? {
          ref: { typeId: field.config.targetTypeId ?? '', recordId: id },
          display: null,
        };
        return access.canReadDisplayOf(related.ref.typeId) ? related : { ref: related.ref, display: null };
      });
      continue;
    }
    values[field.id] = restricted ? { state: 'restricted' } : valueState(field, snapshot.values[field.id]);
  }
  return {
    id: record.id,
    typeId: record.typeId,
    version: record.version,
    status: record.status,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    trashedAt: record.trashedAt?.toISOString() ?? null,
    values,
    links,
    assignments: snapshot.assignments.map((id) => ({ id, name: lookups.userNames.get(id) ?? null })),
    // Stored identities hold only the kinds a write accepts (IDENTITY_KINDS).
    identities: snapshot.identities as RecordView['identities'],
  };
}
