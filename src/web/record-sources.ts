// The record settings of the webhook dialog (docs/api.md#rest-endpoints: recordTrigger, recordSources):
// the draft of each record source (type, search, field and relationship filters, changed fields,
// events), the write it leads to, and the checks the server would refuse it by. No React here.
import type { ErrorIssue } from '../shared/app-error';
import { RECORD_EVENTS } from '../shared/events/record-event-names';
import { filterOpsOf, type RecordFilterOp } from '../shared/records/record-query.rules';
import {
  recordSourceIssues,
  recordSourcesSchema,
  recordTriggerSchema,
  RECORD_SOURCES_MAX,
} from '../shared/webhooks/record-source.rules';
import { MASKED_VALUE } from '../shared/webhooks/record-source-mask.rules';
import type { Field, RecordSource, RecordTrigger, WebhookView } from './api';

export { MASKED_VALUE, RECORD_SOURCES_MAX };

/** One filter as edited: `text` is what the value input shows, `value` what is sent. */
export type FilterDraft = { fieldId: string; op: RecordFilterOp | ''; text: string; value?: unknown };

export type SourceDraft = {
  /** '' in the single source: all accessible types (no `recordTrigger`). */
  typeId: string;
  search: string;
  filters: FilterDraft[];
  changedFieldIds: string[];
  /** Several sources only: the record events this source is for; absent for all of the webhook's. */
  events?: string[];
};

/**
 * `several`: the webhook follows `recordSources` (one entry per source); otherwise `sources` holds
 * the one `recordTrigger` (typeId '' for all accessible types).
 */
export type RecordSettingsDraft = { several: boolean; sources: SourceDraft[] };

export const EMPTY_SOURCE: SourceDraft = { typeId: '', search: '', filters: [], changedFieldIds: [] };
export const NO_RECORD_SETTINGS: RecordSettingsDraft = { several: false, sources: [EMPTY_SOURCE] };

/** A stored filter value as its input shows it: `in` lists as `a, b`. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  return String(value);
}

/** What the person typed as the value the field's kind stores (the server checks it still). */
export function parseValue(text: string, op: RecordFilterOp | '', kind: Field['kind'] | undefined): unknown {
  if (op === 'isEmpty' || op === 'isNotEmpty' || op === '') return undefined;
  const scalar = (piece: string): unknown => {
    const trimmed = piece.trim();
    if ((kind === 'number' || kind === 'formula') && trimmed !== '' && Number.isFinite(Number(trimmed))) {
      return Number(trimmed);
    }
    if (kind === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
    if (kind === 'link' || kind === 'date') return trimmed;
    return piece;
  };
  if (op === 'in') {
    return text.trim() === '' ? [] : text.split(',').map((piece) => scalar(piece.trim()));
  }
  return scalar(text);
}

function sourceDraftOf(source: RecordSource): SourceDraft {
  const draft: SourceDraft = {
    typeId: source.query.typeId,
    search: source.query.search ?? '',
    filters: (source.query.filters ?? []).map((filter) => ({
      fieldId: filter.fieldId,
      op: filter.op,
      text: valueText(filter.value),
      ...(filter.value === undefined ? {} : { value: filter.value }),
    })),
    changedFieldIds: [...(source.changedFieldIds ?? [])],
  };
  if (source.events) draft.events = [...source.events];
  return draft;
}

export function recordSettingsOf(webhook: WebhookView): RecordSettingsDraft {
  if (webhook.recordSources) return { several: true, sources: webhook.recordSources.map(sourceDraftOf) };
  if (webhook.recordTrigger) return { several: false, sources: [sourceDraftOf(webhook.recordTrigger)] };
  return NO_RECORD_SETTINGS;
}

function sourceOf(draft: SourceDraft, several: boolean): RecordSource {
  const query: RecordSource['query'] = { typeId: draft.typeId };
  if (draft.search.trim()) query.search = draft.search;
  if (draft.filters.length) {
    query.filters = draft.filters.map(({ fieldId, op, value }) => ({
      fieldId,
      op: op as RecordFilterOp,
      ...(value === undefined ? {} : { value }),
    }));
  }
  const source: RecordSource = { query };
  if (draft.changedFieldIds.length) source.changedFieldIds = [...draft.changedFieldIds];
  if (several && draft.events?.length) source.events = draft.events as RecordSource['events'];
  return source;
}

export type RecordSettingsWrite = {
  recordTrigger?: RecordTrigger | null;
  recordSources?: RecordSource[] | null;
};

/** What the settings send: the whole trigger or list, and null for the one they replace. */
export function recordSettingsWrite(draft: RecordSettingsDraft): Required<RecordSettingsWrite> {
  if (draft.several) {
    return {
      recordTrigger: null,
      recordSources: draft.sources.length ? draft.sources.map((source) => sourceOf(source, true)) : null,
    };
  }
  const [single] = draft.sources;
  return {
    recordTrigger: single?.typeId ? (sourceOf(single, false) as RecordTrigger) : null,
    recordSources: null,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The record settings part of an update: nothing when they did not change (so opening and saving
 * changes nothing), else the new trigger or list, clearing the one the webhook had before.
 */
export function recordSettingsUpdate(
  initial: RecordSettingsDraft,
  draft: RecordSettingsDraft,
): RecordSettingsWrite | undefined {
  if (same(initial, draft)) return undefined;
  const before = recordSettingsWrite(initial);
  const after = recordSettingsWrite(draft);
  const write: RecordSettingsWrite = {};
  if (!same(before.recordTrigger, after.recordTrigger)) write.recordTrigger = after.recordTrigger;
  if (!same(before.recordSources, after.recordSources)) write.recordSources = after.recordSources;
  return Object.keys(write).length ? write : undefined;
}

/** The record settings part of a new webhook. */
export function recordSettingsCreate(draft: RecordSettingsDraft): RecordSettingsWrite {
  const { recordTrigger, recordSources } = recordSettingsWrite(draft);
  return recordTrigger ? { recordTrigger } : recordSources ? { recordSources } : {};
}

/** The fields of a type as the dialog read them (`model/read`), or null when the viewer cannot read it. */
export type TypeFields = { name: string; fields: Field[] } | null;

/** A field of the source that the viewer may name: known and not restricted for their role. */
export const isVisibleField = (field: Field | undefined): field is Field => !!field && !field.restricted;

/**
 * Everything the server would refuse in the settings, by path (`recordTrigger.query.search`,
 * `recordSources.1.changedFieldIds.0`…): the shapes and limits, and for each source whose type
 * the viewer can read, its filters, changed fields and events. Whether the record owner may read
 * a field stays with the server, which knows the owner's role.
 */
export function recordSettingsIssues(
  draft: RecordSettingsDraft,
  typeFields: (typeId: string) => TypeFields | undefined,
  subscribedEvents: readonly string[],
): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const write = recordSettingsWrite(draft);
  const sources: [RecordSource, (string | number)[]][] = write.recordSources
    ? write.recordSources.map((source, index) => [source, ['recordSources', index]])
    : write.recordTrigger
      ? [[write.recordTrigger, ['recordTrigger']]]
      : [];
  // The list's own limit (each entry is checked below).
  const tooMany = write.recordSources
    ? recordSourcesSchema.safeParse(write.recordSources).error?.issues.find((issue) => !issue.path.length)
    : undefined;
  if (tooMany) issues.push({ code: 'invalid', path: ['recordSources'], message: tooMany.message });
  for (const [source, path] of sources) {
    if (!source.query.typeId) {
      issues.push({ code: 'invalid', path: [...path, 'query', 'typeId'], message: 'Choose a record type.' });
      continue;
    }
    const unchosen = (source.query.filters ?? []).findIndex((filter) => !filter.fieldId || !filter.op);
    if (unchosen >= 0) {
      issues.push({
        code: 'invalid',
        path: [...path, 'query', 'filters', unchosen, 'fieldId'],
        message: 'Choose a field and a condition, or remove the filter.',
      });
      continue;
    }
    const shape = recordTriggerSchema.safeParse({
      query: source.query,
      changedFieldIds: source.changedFieldIds,
    });
    for (const issue of shape.error?.issues ?? []) {
      issues.push({
        code: issue.code,
        path: [...path, ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))],
        message: issue.message,
      });
    }
    const type = typeFields(source.query.typeId);
    if (type) {
      const masked = maskedPaths(source, type, path);
      issues.push(
        ...recordSourceIssues(source, type, path, subscribedEvents).filter(
          (issue) => !masked.some((prefix) => issuesUnder([issue], prefix).length),
        ),
      );
    }
  }
  return issues;
}

/**
 * Where the source holds masks the viewer read (a filter value or a watched field they cannot
 * read): the server puts the saved values back before its checks, so the dialog does not judge them.
 */
function maskedPaths(
  source: RecordSource,
  type: NonNullable<TypeFields>,
  path: (string | number)[],
): (string | number)[][] {
  const hidden = (fieldId: string) => !isVisibleField(type.fields.find((field) => field.id === fieldId));
  const filters = (source.query.filters ?? []).flatMap((filter, index) =>
    filter.value === MASKED_VALUE && hidden(filter.fieldId) ? [[...path, 'query', 'filters', index]] : [],
  );
  const watched = (source.changedFieldIds ?? []).flatMap((fieldId, index) =>
    fieldId === MASKED_VALUE ? [[...path, 'changedFieldIds', index]] : [],
  );
  return [...filters, ...watched];
}

/** The record events a source can be limited to: those the webhook subscribes to. */
export const sourceEventChoices = (events: readonly string[]) =>
  RECORD_EVENTS.filter((event) => events.includes(event));

/** The operators of a field kind, as a picker offers them. */
export const FILTER_OP_LABELS: Record<RecordFilterOp, string> = {
  eq: 'is',
  neq: 'is not',
  contains: 'contains',
  gt: 'is greater than',
  lt: 'is less than',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
  in: 'is one of',
};
export { filterOpsOf };

/** The message shown for an issue about a field the viewer cannot see: it never names the field. */
export const HIDDEN_FIELD_MESSAGE =
  'Refused for a field you cannot see: remove it to save a change to this source.';

/** The issues whose path starts with `prefix` (`['recordSources', 1, 'query', 'search']`). */
export function issuesUnder(
  issues: readonly ErrorIssue[],
  prefix: readonly (string | number)[],
): ErrorIssue[] {
  return issues.filter(
    (issue) =>
      issue.path.length >= prefix.length &&
      prefix.every((part, index) => String(issue.path[index]) === String(part)),
  );
}
