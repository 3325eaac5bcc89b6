import type { ValueState } from '../record-model/field-kinds';
import type { CrmRecord } from './crm-record.entity';
import type { TypeModel } from '../record-model/model.service';
import type { RecordAccess } from '../record-model/record-access';
import type { RecordSnapshot, RelatedRecord } from './record-change';
import { valueState } from '../record-model/values';

export interface RecordView {
  id: string;
  typeId: string;
  version: number;
  status: CrmRecord['status'];
  createdAt: string;
  updatedAt: string;
  trashedAt: string | null;
  /** Per field id: its value state; restricted fields read `restricted`. */
  values: Record<string, ValueState>;
  /** Per link field id: the linked records. */
  links: Record<string, RelatedRecord[]>;
  assignments: { id: string; name: string | null }[];
  identities: { kind: string; value: string }[];
}

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
    identities: snapshot.identities,
  };
}
