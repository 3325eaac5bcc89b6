import { ValidationError, type ErrorIssue } from '../app-error';
import { MASKED_VALUE } from '../deliveries/attempt-record';
import { sameId } from '../records/record-query.rules';

/**
 * Issue 24, item 5: a webhook's record sources as one reader sees them. A filter on a field the
 * reader cannot read keeps its field id and operator, but its value reads as MASKED_VALUE (the
 * value is what a filter of their own on that field would reveal, and that filter is refused to
 * them); a watched changed field they cannot read reads as MASKED_VALUE in its place.
 *
 * A save that sends a mask back keeps the saved value, so reading a webhook and writing it back
 * changes nothing. A mask stands only for the saved value it replaced: the same source (by
 * position, of the same type), the same field and the same operator, or a watched field of that
 * source the reader cannot read. Anywhere else it is refused (`webhookMaskUnmatched`), whatever
 * the saved value is, so a mask cannot be moved to another field or operator to probe it.
 *
 * No import of the source schemas: they import MASKED_VALUE from the same place.
 */

export { MASKED_VALUE };

/** Whether the reader can read this field of this type (the type readable, the field not restricted). */
export type FieldReadable = (typeId: string, fieldId: string) => boolean;

interface MaskableFilter {
  fieldId: string;
  op: string;
  value?: unknown;
}
interface MaskableSource {
  query: { typeId: string; filters?: MaskableFilter[] };
  changedFieldIds?: string[];
}
interface MaskableSettings<Source> {
  recordTrigger?: Source | null;
  recordSources?: Source[] | null;
}

/** The source as the reader sees it (filters without a value, isEmpty and isNotEmpty, hide nothing). */
export function maskSource<Source extends MaskableSource>(source: Source, readable: FieldReadable): Source {
  const hidden = (fieldId: string) => !readable(source.query.typeId, fieldId);
  const masked = { ...source, query: { ...source.query } };
  if (source.query.filters) {
    masked.query.filters = source.query.filters.map((filter) =>
      filter.value !== undefined && hidden(filter.fieldId) ? { ...filter, value: MASKED_VALUE } : filter,
    );
  }
  if (source.changedFieldIds) {
    masked.changedFieldIds = source.changedFieldIds.map((fieldId) =>
      hidden(fieldId) ? MASKED_VALUE : fieldId,
    );
  }
  return masked;
}

/** A webhook's record settings as the reader sees them. */
export function maskRecordSettings<Source extends MaskableSource>(
  settings: { recordTrigger: Source | null; recordSources: Source[] | null },
  readable: FieldReadable,
): { recordTrigger: Source | null; recordSources: Source[] | null } {
  return {
    recordTrigger: settings.recordTrigger && maskSource(settings.recordTrigger, readable),
    recordSources: settings.recordSources?.map((source) => maskSource(source, readable)) ?? null,
  };
}

/** The sources in order: recordSources, else the trigger alone (so a trigger made the first of several keeps its masks). */
const sourcesOf = <Source>(settings: MaskableSettings<Source>): Source[] =>
  settings.recordSources ?? (settings.recordTrigger ? [settings.recordTrigger] : []);

const unmatched = (path: (string | number)[], message: string): ErrorIssue => ({
  code: 'invalid',
  path,
  message,
  customCode: 'webhookMaskUnmatched',
});

/** One sent source with its masks replaced by the saved values they stand for, and the masks that stand for none. */
export function restoreMaskedSource<Source extends MaskableSource>(
  sent: Source,
  saved: MaskableSource | undefined,
  readable: FieldReadable,
  path: (string | number)[],
): { source: Source; issues: ErrorIssue[] } {
  const typeId = sent.query.typeId;
  const hidden = (fieldId: string) => !readable(typeId, fieldId);
  const same = saved && sameId(saved.query.typeId, typeId) ? saved : undefined;
  const issues: ErrorIssue[] = [];
  const source = { ...sent, query: { ...sent.query } };

  // A masked value on a field the sender can read is a value like any other (they would have read it).
  const savedFilters = (same?.query.filters ?? []).filter(
    (filter) => filter.value !== undefined && hidden(filter.fieldId),
  );
  const used = new Set<number>();
  if (sent.query.filters) {
    source.query.filters = sent.query.filters.map((filter, index) => {
      if (filter.value !== MASKED_VALUE || !hidden(filter.fieldId)) return filter;
      const at = savedFilters.findIndex(
        (candidate, candidateAt) =>
          !used.has(candidateAt) && sameId(candidate.fieldId, filter.fieldId) && candidate.op === filter.op,
      );
      if (at < 0) {
        issues.push(
          unmatched(
            [...path, 'query', 'filters', index, 'value'],
            `${MASKED_VALUE} keeps the saved value of a filter on a field you cannot read, in the same source, ` +
              'with the same field and operator: it cannot be moved, and you cannot set a value of that field.',
          ),
        );
        return filter;
      }
      used.add(at);
      return { ...filter, value: savedFilters[at]!.value };
    });
  }

  // Masked watched fields are indistinguishable: each takes the next saved one the sender cannot read.
  const sentIds = sent.changedFieldIds ?? [];
  const savedWatched = (same?.changedFieldIds ?? []).filter(
    (fieldId) => hidden(fieldId) && !sentIds.some((sentId) => sameId(sentId, fieldId)),
  );
  let next = 0;
  if (sent.changedFieldIds) {
    source.changedFieldIds = sent.changedFieldIds.map((fieldId, index) => {
      if (fieldId !== MASKED_VALUE) return fieldId;
      const restored = savedWatched[next++];
      if (restored === undefined) {
        issues.push(
          unmatched(
            [...path, 'changedFieldIds', index],
            `${MASKED_VALUE} keeps a saved watched field you cannot read; this source has no more of them.`,
          ),
        );
      }
      return restored ?? fieldId;
    });
  }
  return { source, issues };
}

/**
 * The write with every mask replaced by the saved value it stands for (sources paired by
 * position); refuses (400 `webhookMaskUnmatched`) a mask that stands for none.
 */
export function restoreMaskedSettings<Input extends MaskableSettings<MaskableSource>>(
  input: Input,
  saved: MaskableSettings<MaskableSource>,
  readable: FieldReadable,
): Input {
  const savedSources = sourcesOf(saved);
  const issues: ErrorIssue[] = [];
  const restore = <Source extends MaskableSource>(
    source: Source,
    index: number,
    path: (string | number)[],
  ): Source => {
    const restored = restoreMaskedSource(source, savedSources[index], readable, path);
    issues.push(...restored.issues);
    return restored.source;
  };
  const output = { ...input };
  if (input.recordTrigger) output.recordTrigger = restore(input.recordTrigger, 0, ['recordTrigger']);
  if (input.recordSources) {
    output.recordSources = input.recordSources.map((source, index) =>
      restore(source, index, ['recordSources', index]),
    );
  }
  if (issues.length) throw new ValidationError(issues);
  return output;
}
