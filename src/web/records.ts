// Records in the web app: a form's draft of a record, the write it leads to (only what changed),
// rich text as plain lines, and display names. No React here: the pages use these.
import type { Field, Identity, RecordType, RecordView, RecordWrite } from './api';

/** One field's form value: text-like inputs hold strings, checkboxes booleans, links record ids. */
export type DraftValue = string | boolean | string[];

export type Draft = {
  values: Record<string, DraftValue>;
  assignments: string[];
  identities: Identity[];
};

/** A field a person can change: not a formula (computed) and not restricted (never sent). */
export function isEditable(field: Field): boolean {
  return field.kind !== 'formula' && !field.restricted;
}

type DocNode = { type?: unknown; text?: unknown; content?: unknown };

/** The text of a rich-text document, one line per top-level block (paragraph, heading, …). */
export function richTextToPlain(documentJson: unknown): string {
  const textOf = (node: DocNode): string => {
    if (node.type === 'text' && typeof node.text === 'string') return node.text;
    if (node.type === 'hardBreak') return '\n';
    return Array.isArray(node.content) ? (node.content as DocNode[]).map(textOf).join('') : '';
  };
  const doc = documentJson as DocNode | null | undefined;
  if (!doc || !Array.isArray(doc.content)) return '';
  return (doc.content as DocNode[]).map(textOf).join('\n');
}

/** A TipTap/ProseMirror document with one paragraph per line (an empty line is an empty paragraph). */
export function plainToRichText(text: string): { documentJson: { type: 'doc'; content: unknown[] } } {
  const content = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) =>
      line === '' ? { type: 'paragraph' } : { type: 'paragraph', content: [{ type: 'text', text: line }] },
    );
  return { documentJson: { type: 'doc', content } };
}

/** The draft of a record (or of a new one): what the form's inputs start with. */
export function draftOf(type: RecordType, record?: RecordView): Draft {
  const values: Record<string, DraftValue> = {};
  for (const field of type.fields) {
    if (!isEditable(field)) continue;
    if (field.kind === 'link') {
      values[field.id] = (record?.links[field.id] ?? []).map((related) => related.ref.recordId);
      continue;
    }
    const state = record?.values[field.id];
    const value = state?.state === 'value' ? state.value : undefined;
    switch (field.kind) {
      case 'boolean':
        values[field.id] = value === true;
        break;
      case 'number':
        values[field.id] = typeof value === 'number' ? String(value) : '';
        break;
      case 'richText':
        values[field.id] = richTextToPlain((value as { documentJson?: unknown } | undefined)?.documentJson);
        break;
      default:
        values[field.id] = typeof value === 'string' ? value : '';
    }
  }
  return {
    values,
    assignments: (record?.assignments ?? []).map((assignee) => assignee.id),
    identities: (record?.identities ?? []).map(({ kind, value }) => ({ kind, value })),
  };
}

/** A form value that cannot be sent, with the message to show. */
export class DraftError extends Error {
  override name = 'DraftError';
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
}

function sameDraftValue(a: DraftValue | undefined, b: DraftValue | undefined): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return sameList((a ?? []) as string[], (b ?? []) as string[]);
  return a === b;
}

/** The API value of a field's form value; null for an emptied field. */
function apiValue(field: Field, value: DraftValue): unknown {
  switch (field.kind) {
    case 'boolean':
      return value === true;
    case 'number': {
      const text = String(value).trim();
      if (text === '') return null;
      const number = Number(text);
      if (!Number.isFinite(number)) throw new DraftError(`${field.name}: enter a number.`);
      return number;
    }
    case 'richText':
      return String(value).trim() === '' ? null : plainToRichText(String(value));
    default:
      return value === '' ? null : value;
  }
}

const identityKey = (identity: Identity) => `${identity.kind}\u0000${identity.value}`;

/**
 * The write of a form: every field, link, assignment and identity the person changed from
 * `initial` (for a new record, from the empty draft). Restricted and formula fields are never sent.
 * Returns undefined when nothing changed.
 */
export function writeOf(
  type: RecordType,
  initial: Draft,
  draft: Draft,
  isNew: boolean,
): RecordWrite | undefined {
  const write: RecordWrite = {};
  for (const field of type.fields) {
    if (!isEditable(field)) continue;
    const before = initial.values[field.id];
    const after = draft.values[field.id];
    if (after === undefined || sameDraftValue(before, after)) continue;
    if (field.kind === 'link') {
      write.links = { ...write.links, [field.id]: after as string[] };
      continue;
    }
    const value = apiValue(field, after);
    // A new record has nothing to clear.
    if (isNew && value === null) continue;
    write.values = { ...write.values, [field.id]: value };
  }
  if (!sameList(initial.assignments, draft.assignments)) write.assignments = draft.assignments;
  const identities = draft.identities
    .map((identity) => ({ kind: identity.kind, value: identity.value.trim() }))
    .filter((identity) => identity.value !== '');
  if (!sameList(initial.identities.map(identityKey), identities.map(identityKey))) {
    write.identities = identities;
  }
  return Object.keys(write).length ? write : undefined;
}

/** The field that names a record: the type's first text field (as the server's display names). */
export function displayField(type: RecordType): Field | undefined {
  return type.fields.find((field) => field.kind === 'text');
}

/** A record's name as people read it. */
export function recordTitle(type: RecordType, record: RecordView): string {
  const field = displayField(type);
  const state = field ? record.values[field.id] : undefined;
  if (state?.state === 'value' && typeof state.value === 'string' && state.value.trim()) return state.value;
  if (state?.state === 'restricted') return 'Restricted record';
  return 'Untitled';
}

/** A formula's expression with field names instead of ids: `{Amount} * {Probability} / 100`. */
export function readableExpression(type: RecordType, expression: string): string {
  return expression.replace(/\{([^}]+)\}/g, (whole, id: string) => {
    const field = type.fields.find((candidate) => candidate.id === id);
    return field ? `{${field.name}}` : whole;
  });
}
