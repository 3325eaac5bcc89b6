// Create or edit a record: one input per field a person can write
// (docs/app-api.md#records-and-the-record-model-same-routes-as-the-rest-api-with-the-session-cookie),
// links chosen among the target type's records, assignments and identities. Only what changed is sent;
// an emptied field sends null. Restricted fields show "Restricted" and are never sent; formula
// fields are computed by the server.
import { useEffect, useState, type FormEvent } from 'react';
import {
  api,
  ApiError,
  errorMessage,
  type Field,
  type Identity,
  type IdentityKind,
  type RecordType,
  type RecordView,
} from '../../api';
import {
  draftOf,
  DraftError,
  isEditable,
  readableExpression,
  recordTitle,
  writeOf,
  type Draft,
  type DraftValue,
} from '../../records';
import { useSubmit } from '../../hooks/useSubmit';
import { DialogActions, ErrorMessage } from '../Dialog';
import { RecordValue } from './RecordValue';

export type Person = { id: string; name: string };

/** The records a link field may point to: the target type's newest records, and those linked now. */
type LinkChoices =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; typeName: string; options: { id: string; name: string }[] };

const LINK_CHOICES_LIMIT = 200;
const IDENTITY_KINDS: { kind: IdentityKind; label: string }[] = [
  { kind: 'email', label: 'Email' },
  { kind: 'phone', label: 'Phone' },
  { kind: 'social', label: 'Social' },
];

function useLinkChoices(type: RecordType, record: RecordView | undefined): Record<string, LinkChoices> {
  const [choices, setChoices] = useState<Record<string, LinkChoices>>({});
  useEffect(() => {
    let live = true;
    const linkFields = type.fields.filter((field) => field.kind === 'link' && isEditable(field));
    setChoices(Object.fromEntries(linkFields.map((field) => [field.id, { status: 'loading' as const }])));
    for (const field of linkFields) {
      const target = field.config.targetTypeId ?? '';
      const current = (record?.links[field.id] ?? []).map((related) => ({
        id: related.ref.recordId,
        name: related.display ?? 'Hidden record',
      }));
      void Promise.all([api.readType(target), api.records(target, { limit: LINK_CHOICES_LIMIT })])
        .then(([{ type: targetType }, page]) => {
          const listed = page.data.map((item) => ({ id: item.id, name: recordTitle(targetType, item) }));
          const ids = new Set(listed.map((option) => option.id));
          const options = [...current.filter((option) => !ids.has(option.id)), ...listed];
          return { status: 'ready' as const, typeName: targetType.name, options };
        })
        .catch((failure: unknown) => ({
          status: 'error' as const,
          message:
            failure instanceof ApiError && failure.status === 404
              ? 'your role cannot read the linked record type.'
              : errorMessage(failure),
        }))
        .then((result) => {
          if (live) setChoices((all) => ({ ...all, [field.id]: result }));
        });
    }
    return () => {
      live = false;
    };
  }, [type, record]);
  return choices;
}

type Props = {
  type: RecordType;
  /** Absent: a new record. */
  record?: RecordView;
  /** Whom records can be assigned to. */
  people: Person[];
  onCancel: () => void;
  onSaved: (record: RecordView) => void;
};

export function RecordForm({ type, record, people, onCancel, onSaved }: Props) {
  const [initial] = useState(() => draftOf(type, record));
  const [draft, setDraft] = useState<Draft>(initial);
  const linkChoices = useLinkChoices(type, record);
  const { busy, error, setError, run } = useSubmit();

  const setValue = (fieldId: string, value: DraftValue) =>
    setDraft((current) => ({ ...current, values: { ...current.values, [fieldId]: value } }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let write;
    try {
      write = writeOf(type, initial, draft, record === undefined);
    } catch (failure) {
      if (failure instanceof DraftError) return setError(failure.message);
      throw failure;
    }
    // Nothing changed: nothing to send.
    if (record && !write) return onSaved(record);
    void run(async () =>
      onSaved(
        record
          ? await api.updateRecord(type.id, record.id, write ?? {})
          : await api.createRecord(type.id, write ?? {}),
      ),
    );
  };

  return (
    <form className="form record-form" onSubmit={submit} data-testid="record-form" noValidate>
      {[...type.fields]
        .sort((a, b) => a.position - b.position)
        .map((field) => (
          <FieldInput
            key={field.id}
            type={type}
            field={field}
            record={record}
            value={draft.values[field.id]}
            choices={linkChoices[field.id]}
            onChange={(value) => setValue(field.id, value)}
          />
        ))}
      <Assignments
        people={people}
        record={record}
        value={draft.assignments}
        onChange={(assignments) => setDraft((current) => ({ ...current, assignments }))}
      />
      <Identities
        value={draft.identities}
        onChange={(identities) => setDraft((current) => ({ ...current, identities }))}
      />
      <ErrorMessage message={error} />
      <DialogActions
        onCancel={onCancel}
        cancelTestId="record-cancel"
        label={record ? 'Save' : 'Create'}
        busyLabel={record ? 'Saving…' : 'Creating…'}
        busy={busy}
        testId="record-save"
      />
    </form>
  );
}

function FieldInput({
  type,
  field,
  record,
  value,
  choices,
  onChange,
}: {
  type: RecordType;
  field: Field;
  record: RecordView | undefined;
  value: DraftValue | undefined;
  choices: LinkChoices | undefined;
  onChange: (value: DraftValue) => void;
}) {
  const common = { 'data-testid': 'record-input', 'data-field-name': field.name, 'data-kind': field.kind };
  if (field.restricted) {
    return (
      <div className="field-static">
        <span className="field-label">{field.name}</span>
        <span className="value-restricted" data-testid="record-input-restricted" data-field-name={field.name}>
          Restricted
        </span>
      </div>
    );
  }
  if (field.kind === 'formula') {
    return (
      <div className="field-static" data-testid="record-input-formula" data-field-name={field.name}>
        <span className="field-label">{field.name}</span>
        {record ? (
          <RecordValue field={field} record={record} />
        ) : (
          <span className="muted">Computed on save</span>
        )}
        {field.config.expression ? (
          <span className="hint">= {readableExpression(type, field.config.expression)}</span>
        ) : null}
      </div>
    );
  }
  if (field.kind === 'link') {
    const selected = Array.isArray(value) ? value : [];
    const toggle = (id: string, on: boolean) =>
      onChange(on ? [...selected, id] : selected.filter((item) => item !== id));
    return (
      <fieldset className="link-field" data-testid="record-link-field" data-field-name={field.name}>
        <legend>{field.name}</legend>
        {!choices || choices.status === 'loading' ? (
          <span className="muted">Loading…</span>
        ) : choices.status === 'error' ? (
          <span className="muted">Cannot list the linked records: {choices.message}</span>
        ) : choices.options.length === 0 ? (
          <span className="muted">No {choices.typeName} yet.</span>
        ) : (
          <div className="checklist">
            {choices.options.map((option) => (
              <label key={option.id} className="inline">
                <input
                  type="checkbox"
                  checked={selected.includes(option.id)}
                  onChange={(event) => toggle(option.id, event.target.checked)}
                  data-testid="record-link-option"
                  data-field-name={field.name}
                  data-record-id={option.id}
                />
                {option.name}
              </label>
            ))}
          </div>
        )}
      </fieldset>
    );
  }
  if (field.kind === 'boolean') {
    return (
      <label className="inline">
        <input
          type="checkbox"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
          {...common}
        />
        {field.name}
      </label>
    );
  }
  const text = typeof value === 'string' ? value : '';
  const input = (() => {
    switch (field.kind) {
      case 'select': {
        const options = field.config.options ?? [];
        return (
          <select value={text} onChange={(event) => onChange(event.target.value)} {...common}>
            <option value="">—</option>
            {/* A stored value no longer among the options stays choosable until changed. */}
            {text && !options.includes(text) ? <option value={text}>{text}</option> : null}
            {options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        );
      }
      case 'richText':
        return (
          <textarea rows={4} value={text} onChange={(event) => onChange(event.target.value)} {...common} />
        );
      case 'number':
        return (
          <input
            type="number"
            step="any"
            inputMode="decimal"
            value={text}
            onChange={(event) => onChange(event.target.value)}
            {...common}
          />
        );
      default: {
        const inputType = { email: 'email', url: 'url', date: 'date' }[field.kind as string] ?? 'text';
        return (
          <input
            type={inputType}
            value={text}
            maxLength={10_000}
            placeholder={field.kind === 'url' ? 'https://' : undefined}
            onChange={(event) => onChange(event.target.value)}
            {...common}
          />
        );
      }
    }
  })();
  return (
    <label>
      {field.name}
      {input}
      {field.kind === 'richText' ? <span className="hint">One paragraph per line.</span> : null}
    </label>
  );
}

function Assignments({
  people,
  record,
  value,
  onChange,
}: {
  people: Person[];
  record: RecordView | undefined;
  value: string[];
  onChange: (value: string[]) => void;
}) {
  // Everyone assignable, and those assigned now (even if the list of people does not hold them).
  const known = new Map(people.map((person) => [person.id, person.name]));
  for (const assignee of record?.assignments ?? []) {
    if (!known.has(assignee.id)) known.set(assignee.id, assignee.name ?? 'Former member');
  }
  if (known.size === 0) return null;
  return (
    <fieldset className="link-field" data-testid="record-assignments-input">
      <legend>Assigned to</legend>
      <div className="checklist">
        {[...known].map(([id, name]) => (
          <label key={id} className="inline">
            <input
              type="checkbox"
              checked={value.includes(id)}
              onChange={(event) =>
                onChange(event.target.checked ? [...value, id] : value.filter((item) => item !== id))
              }
              data-testid="record-assignee"
              data-name={name}
            />
            {name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Identities({ value, onChange }: { value: Identity[]; onChange: (value: Identity[]) => void }) {
  const change = (index: number, identity: Identity) =>
    onChange(value.map((item, at) => (at === index ? identity : item)));
  return (
    <fieldset className="link-field" data-testid="record-identities-input">
      <legend>Identities</legend>
      {value.map((identity, index) => (
        <div className="identity-row" key={index}>
          <select
            aria-label="Identity kind"
            value={identity.kind}
            onChange={(event) => change(index, { ...identity, kind: event.target.value as IdentityKind })}
            data-testid="record-identity-kind"
          >
            {IDENTITY_KINDS.map((option) => (
              <option key={option.kind} value={option.kind}>
                {option.label}
              </option>
            ))}
          </select>
          <input
            aria-label="Identity"
            value={identity.value}
            maxLength={320}
            onChange={(event) => change(index, { ...identity, value: event.target.value })}
            data-testid="record-identity-value"
          />
          <button
            type="button"
            className="button button-small"
            onClick={() => onChange(value.filter((_, at) => at !== index))}
            aria-label="Remove identity"
          >
            Remove
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          className="button button-small"
          onClick={() => onChange([...value, { kind: 'email', value: '' }])}
          data-testid="record-identity-add"
        >
          Add identity
        </button>
      </div>
    </fieldset>
  );
}
