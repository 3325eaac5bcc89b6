// One filter of a record source: a field of the type (by name), a condition that fits its kind,
// and a value. A filter on a field the viewer cannot see shows neither its field nor its value:
// the server sends that value masked, and the mask is shown as it is.
import type { Field } from '../../api';
import {
  FILTER_OP_LABELS,
  HIDDEN_FIELD_MESSAGE,
  MASKED_VALUE,
  filterOpsOf,
  parseValue,
  type FilterDraft,
} from '../../record-sources';
import { LinkButton } from '../Dialog';
import { IssueMessages } from './RecordSourceIssues';

type Props = {
  filter: FilterDraft;
  /** The viewer's readable fields of the type, by position. */
  fields: Field[];
  /** 'hidden': a field the viewer cannot see; 'gone': a field the type no longer has. */
  standing: 'visible' | 'hidden' | 'gone';
  messages: string[];
  readOnly: boolean;
  onChange: (filter: FilterDraft) => void;
  onRemove: () => void;
};

export function RecordFilterRow({ filter, fields, standing, messages, readOnly, onChange, onRemove }: Props) {
  const field = fields.find((candidate) => candidate.id === filter.fieldId);
  const remove = readOnly ? null : (
    <LinkButton small onClick={onRemove} testId="record-filter-remove">
      Remove
    </LinkButton>
  );
  if (standing !== 'visible') {
    return (
      <div className="record-filter" data-testid="record-filter" data-hidden="true">
        <span className="hint">
          {standing === 'hidden'
            ? 'A filter on a field you cannot see'
            : 'A filter on a field that no longer exists'}
        </span>
        {filter.value === MASKED_VALUE && filter.op ? (
          <span data-testid="record-filter-mask">
            {FILTER_OP_LABELS[filter.op]} <code>{MASKED_VALUE}</code>
          </span>
        ) : null}
        {remove}
        <IssueMessages
          messages={messages.length && standing === 'hidden' ? [HIDDEN_FIELD_MESSAGE] : messages}
        />
      </div>
    );
  }

  const ops = field ? filterOpsOf(field.kind) : [];
  const setField = (fieldId: string) => {
    const chosen = fields.find((candidate) => candidate.id === fieldId);
    const op = chosen ? (filterOpsOf(chosen.kind)[0] ?? '') : '';
    onChange({ fieldId, op, text: '', value: parseValue('', op, chosen?.kind) });
  };
  const setOp = (op: FilterDraft['op']) =>
    onChange({ ...filter, op, value: parseValue(filter.text, op, field?.kind) });
  const setText = (text: string) =>
    onChange({ ...filter, text, value: parseValue(text, filter.op, field?.kind) });
  const takesValue = filter.op !== '' && filter.op !== 'isEmpty' && filter.op !== 'isNotEmpty';
  const single = filter.op === 'eq' || filter.op === 'neq';
  const valueProps = {
    value: filter.text,
    disabled: readOnly,
    'aria-label': 'Value',
    'data-testid': 'record-filter-value',
  };

  let valueInput = null;
  if (takesValue && field?.kind === 'select' && single) {
    valueInput = (
      <select {...valueProps} onChange={(event) => setText(event.target.value)}>
        <option value="">Choose…</option>
        {(field.config.options ?? []).map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else if (takesValue && field?.kind === 'boolean' && single) {
    valueInput = (
      <select {...valueProps} onChange={(event) => setText(event.target.value)}>
        <option value="">Choose…</option>
        <option value="true">Yes</option>
        <option value="false">No</option>
      </select>
    );
  } else if (takesValue) {
    const placeholder =
      filter.op === 'in'
        ? 'Values, separated by commas'
        : field?.kind === 'link'
          ? 'Id of the linked record'
          : field?.kind === 'date'
            ? 'YYYY-MM-DD'
            : 'Value';
    valueInput = (
      <input
        {...valueProps}
        type={field?.kind === 'date' && filter.op !== 'in' ? 'date' : 'text'}
        placeholder={placeholder}
        readOnly={readOnly}
        onChange={(event) => setText(event.target.value)}
      />
    );
  }

  return (
    <div className="record-filter" data-testid="record-filter" data-field-name={field?.name ?? ''}>
      <select
        value={filter.fieldId}
        disabled={readOnly}
        aria-label="Field"
        onChange={(event) => setField(event.target.value)}
        data-testid="record-filter-field"
      >
        <option value="">Choose a field…</option>
        {fields.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.name}
            {candidate.kind === 'link' ? ' (relationship)' : ''}
          </option>
        ))}
      </select>
      <select
        value={filter.op}
        disabled={readOnly || !field}
        aria-label="Condition"
        onChange={(event) => setOp(event.target.value as FilterDraft['op'])}
        data-testid="record-filter-op"
      >
        {field ? null : <option value="">—</option>}
        {ops.map((op) => (
          <option key={op} value={op}>
            {FILTER_OP_LABELS[op]}
          </option>
        ))}
      </select>
      {valueInput}
      {remove}
      <IssueMessages messages={messages} />
    </div>
  );
}
