// A field's value as people read it, with its value state (app-api.md, ValueState): a missing
// value is an em dash (never zero), a restricted one says "Restricted", an error gives its message.
import type { ReactNode } from 'react';
import type { Field, RecordView, RelatedRecord, ValueState } from '../../api';
import { richTextToPlain } from '../../records';

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 10 });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

function formatDate(value: string): string {
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

/** The state of a field of a record: link fields from `links` (absent when restricted). */
export function fieldState(
  field: Field,
  record: RecordView,
): ValueState | { state: 'links'; links: RelatedRecord[] } {
  if (field.kind === 'link') {
    const links = record.links[field.id];
    if (field.restricted || links === undefined)
      return field.restricted ? { state: 'restricted' } : { state: 'missing' };
    return links.length ? { state: 'links', links } : { state: 'missing' };
  }
  return record.values[field.id] ?? { state: 'missing' };
}

type Props = {
  field: Field;
  record: RecordView;
  /** In a table cell: one line, rich text shortened. */
  compact?: boolean;
  testId?: string;
};

export function RecordValue({ field, record, compact, testId }: Props) {
  const state = fieldState(field, record);
  const wrap = (content: ReactNode, className?: string, title?: string) => (
    <span className={className} data-testid={testId} data-state={state.state} title={title}>
      {content}
    </span>
  );
  switch (state.state) {
    case 'missing':
      return wrap('—', 'value-missing');
    case 'restricted':
      return wrap('Restricted', 'value-restricted', 'Your role cannot read this field.');
    case 'error':
      return wrap(`Error: ${state.message}`, 'value-error');
    case 'links':
      return wrap(
        state.links.map((link, index) => (
          <span key={link.ref.recordId}>
            {index > 0 ? ', ' : null}
            {link.display ?? <span className="muted">Hidden record</span>}
          </span>
        )),
      );
    case 'value':
      return wrap(<Value field={field} value={state.value} compact={compact} />);
  }
}

function Value({ field, value, compact }: { field: Field; value: unknown; compact?: boolean }) {
  switch (field.kind) {
    case 'number':
    case 'formula':
      return <>{typeof value === 'number' ? formatNumber(value) : String(value)}</>;
    case 'boolean':
      return <>{value === true ? 'Yes' : 'No'}</>;
    case 'date':
      return <time dateTime={String(value)}>{formatDate(String(value))}</time>;
    case 'select':
      return <span className="tag tag-plain">{String(value)}</span>;
    case 'email':
      return compact ? <>{String(value)}</> : <a href={`mailto:${String(value)}`}>{String(value)}</a>;
    case 'url':
      return compact ? (
        <>{String(value)}</>
      ) : (
        <a href={String(value)} target="_blank" rel="noopener noreferrer">
          {String(value)}
        </a>
      );
    case 'richText': {
      const text = richTextToPlain((value as { documentJson?: unknown } | null)?.documentJson);
      if (compact)
        return (
          <>{text.length > 60 ? `${text.replace(/\n/g, ' ').slice(0, 60)}…` : text.replace(/\n/g, ' ')}</>
        );
      return <span className="pre-line">{text}</span>;
    }
    default:
      return <>{String(value)}</>;
  }
}
