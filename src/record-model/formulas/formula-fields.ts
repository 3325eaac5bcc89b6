import type { FieldDef, StoredValue } from '../field-kinds';
import { evaluateFormula, formulaFieldRefs, invalid, parseFormula, type FormulaAst } from './formula';

// The formula fields of a record type: checking a new expression against the type's fields
// (kinds, cycles), and computing every formula of a record in dependency order.

/** The field ids a stored formula uses; an unparsable one uses none (it stores an error). */
export function formulaInputIds(expression: string | undefined): string[] {
  try {
    return formulaFieldRefs(parseFormula(expression ?? ''));
  } catch {
    return [];
  }
}

/**
 * Checks a formula of a field. `fields` are the fields of the formula's type; when
 * `selfFieldId` is among them, fields of other types are ignored. A formula may use number and
 * formula fields, but never itself, directly or through other formulas.
 */
export function validateFormula(expression: string, fields: FieldDef[], selfFieldId?: string): void {
  const refs = formulaFieldRefs(parseFormula(expression));
  const self = fields.find((field) => field.id === selfFieldId);
  const sameType = self ? fields.filter((field) => field.typeId === self.typeId) : fields;
  const byId = new Map(sameType.map((field) => [field.id, field]));

  for (const ref of refs) {
    if (ref === selfFieldId) throw invalid('A formula cannot use its own field.', 'formulaCycle');
    const field = byId.get(ref);
    if (!field) throw invalid(`The formula uses an unknown field {${ref}}.`, 'formulaUnknownField');
    if (field.kind !== 'number' && field.kind !== 'formula') {
      throw invalid(
        `The formula uses '${field.name}', a ${field.kind} field; only number and formula fields can be used.`,
        'formulaFieldNotNumeric',
      );
    }
  }

  const refsOf = (fieldId: string): string[] => {
    const field = byId.get(fieldId);
    return field?.kind === 'formula' ? formulaInputIds(field.config.expression) : [];
  };
  const cycle = findCycle(refs, refsOf, selfFieldId);
  if (cycle) {
    const names = cycle.map((id) => byId.get(id)?.name ?? id).join(' → ');
    throw invalid(`The formula would depend on itself: ${names}.`, 'formulaCycle');
  }
}

/** A path that comes back to a field already on it, reachable from `startRefs`. */
function findCycle(
  startRefs: string[],
  refsOf: (fieldId: string) => string[],
  selfFieldId: string | undefined,
): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = selfFieldId ? [selfFieldId] : [];
  const visit = (fieldId: string): string[] | undefined => {
    const seenAt = path.indexOf(fieldId);
    if (seenAt >= 0) return [...path.slice(seenAt), fieldId];
    if (done.has(fieldId)) return undefined;
    path.push(fieldId);
    const refs = fieldId === selfFieldId ? startRefs : refsOf(fieldId);
    for (const ref of refs) {
      const cycle = visit(ref);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(fieldId);
    return undefined;
  };
  for (const ref of startRefs) {
    const cycle = visit(ref);
    if (cycle) return cycle;
  }
  return undefined;
}

/**
 * The stored value of every formula field in `fields` for a record's `values`: a number,
 * `{ $error }`, or undefined when an input is missing. Formulas that use formulas are computed
 * after them; a stored formula that no longer parses, uses a field that is gone or not numeric,
 * or sits on a cycle stores an error instead of failing the write.
 */
export function computeFormulas(
  fields: FieldDef[],
  values: Record<string, unknown>,
): Record<string, StoredValue | undefined> {
  const byId = new Map(fields.map((field) => [field.id, field]));
  const computed = new Map<string, StoredValue | undefined>();
  const inProgress = new Set<string>();

  const formulaValue = (field: FieldDef): StoredValue | undefined => {
    if (computed.has(field.id)) return computed.get(field.id);
    if (inProgress.has(field.id)) return { $error: 'circular reference' };
    inProgress.add(field.id);
    const result = evaluateField(field, inputValue);
    inProgress.delete(field.id);
    computed.set(field.id, result);
    return result;
  };

  const inputValue = (fieldId: string): unknown => {
    const field = byId.get(fieldId);
    if (!field) return { $error: `field {${fieldId}} does not exist` };
    if (field.kind === 'formula') return formulaValue(field);
    if (field.kind !== 'number') return { $error: `field '${field.name}' is not numeric` };
    return Object.hasOwn(values, fieldId) ? values[fieldId] : undefined;
  };

  const result: Record<string, StoredValue | undefined> = {};
  for (const field of fields) {
    if (field.kind === 'formula') result[field.id] = formulaValue(field);
  }
  return result;
}

function evaluateField(field: FieldDef, valueOf: (fieldId: string) => unknown): StoredValue | undefined {
  let ast: FormulaAst;
  try {
    ast = parseFormula(field.config.expression ?? '');
  } catch (error) {
    return { $error: error instanceof Error ? error.message : 'invalid formula' };
  }
  const outcome = evaluateFormula(ast, valueOf);
  if (outcome.state === 'value') return outcome.value;
  if (outcome.state === 'error') return { $error: outcome.message };
  return undefined;
}
