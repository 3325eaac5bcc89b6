import type { EntityManager } from 'typeorm';
import type { FieldDef } from '../record-model/field-kinds';
import { computeFormulas } from '../record-model/formulas/formula-fields';
import { CrmRecord } from './crm-record.entity';

/**
 * Recomputes the stored formula values of every live record of a type, in place: no version
 * change and no event (a data-model change is not a record write). Returns how many changed.
 */
export async function recalculateFormulas(
  manager: EntityManager,
  typeId: string,
  fields: FieldDef[],
): Promise<number> {
  const records = await manager.find(CrmRecord, { where: { typeId, status: 'active' } });
  const trashed = await manager.find(CrmRecord, { where: { typeId, status: 'trashed' } });
  let changed = 0;
  for (const record of [...records, ...trashed]) {
    const values = { ...record.values };
    for (const [fieldId, computed] of Object.entries(computeFormulas(fields, values))) {
      if (computed === undefined) delete values[fieldId];
      else values[fieldId] = computed;
    }
    if (JSON.stringify(values) === JSON.stringify(record.values)) continue;
    await manager.query(`UPDATE records SET values = $2 WHERE id = $1`, [record.id, JSON.stringify(values)]);
    changed += 1;
  }
  return changed;
}
