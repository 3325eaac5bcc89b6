import type { ValueState } from '../record-model/field-kinds';
import type { TypeModel } from '../record-model/model.service';
import type { RecordView } from '../records/record-view';
import { escapeMarkdown, richTextToMarkdown } from './markdown';

function cell(state: ValueState | undefined): string {
  if (!state || state.state === 'missing') return '—';
  if (state.state === 'restricted') return '(restricted)';
  if (state.state === 'error') return `(error: ${escapeMarkdown(state.message)})`;
  if (state.kind === 'richText') return '(formatted text, below)';
  return escapeMarkdown(String(state.value));
}

/** The record's display name: its first text field, or its id. */
export function recordTitle(view: RecordView, type: TypeModel): string {
  const field = type.fields.find((candidate) => candidate.kind === 'text');
  const state = field ? view.values[field.id] : undefined;
  return state?.state === 'value' ? escapeMarkdown(String(state.value)) : `Record ${view.id}`;
}

/** A record as Markdown: a field table with stable ids, then formatted-text fields, links, people. */
export function recordToMarkdown(view: RecordView, type: TypeModel): string {
  const lines = [
    `### ${recordTitle(view, type)} (${escapeMarkdown(type.name)})`,
    `id \`${view.id}\` · type \`${type.id}\` · version ${view.version} · ${view.status} · updated ${view.updatedAt}`,
    '',
    '| Field | Field id | Value |',
    '|---|---|---|',
  ];
  const richTexts: string[] = [];
  for (const field of type.fields) {
    if (field.kind === 'link') {
      const related = view.links[field.id];
      const shown =
        related === undefined
          ? '(restricted)'
          : related.length
            ? related
                .map(
                  (r) =>
                    `${r.display === null ? '(hidden)' : escapeMarkdown(r.display)} \`${r.ref.recordId}\``,
                )
                .join(', ')
            : '—';
      lines.push(`| ${escapeMarkdown(field.name)} | \`${field.id}\` | ${shown} |`);
      continue;
    }
    const state = view.values[field.id];
    lines.push(`| ${escapeMarkdown(field.name)} | \`${field.id}\` | ${cell(state)} |`);
    if (state?.state === 'value' && state.kind === 'richText') {
      richTexts.push(
        `#### ${escapeMarkdown(field.name)}\n\n${richTextToMarkdown((state.value as { documentJson: unknown }).documentJson)}`,
      );
    }
  }
  if (view.assignments.length) {
    lines.push(
      '',
      `Assigned to: ${view.assignments.map((a) => `${escapeMarkdown(a.name ?? a.id)} \`${a.id}\``).join(', ')}`,
    );
  }
  if (view.identities.length) {
    lines.push(
      '',
      `Identities: ${view.identities.map((i) => `${i.kind} ${escapeMarkdown(i.value)}`).join(', ')}`,
    );
  }
  return [...lines, ...richTexts.flatMap((block) => ['', block])].join('\n');
}
