// One record source of the webhook dialog (docs/api.md#rest-endpoints: recordTrigger, recordSources): its
// record type, search, filters on fields and relationships, changed fields and, when the webhook
// has several sources, its events. Fields are offered by name from the viewer's readable fields;
// the source stores their stable ids. Fields the viewer cannot see are kept, never named.
import { useId } from 'react';
import type { ErrorIssue } from '../../../shared/app-error';
import { QUERY_FILTERS_MAX } from '../../../shared/records/record-query.rules';
import type { RecordTypeSummary } from '../../api';
import {
  HIDDEN_FIELD_MESSAGE,
  MASKED_VALUE,
  issuesUnder,
  isVisibleField,
  sourceEventChoices,
  type SourceDraft,
  type TypeFields,
} from '../../record-sources';
import { LinkButton } from '../Dialog';
import { RecordFilterRow } from './RecordFilterRow';
import { IssueMessages } from './RecordSourceIssues';

type Props = {
  source: SourceDraft;
  /** `['recordTrigger']` or `['recordSources', index]`: where its issues point. */
  path: (string | number)[];
  /** The single source may follow all accessible types (typeId ''). */
  allowAllTypes: boolean;
  /** The webhook's events (a source of several is limited to some of its record events). */
  webhookEvents: string[] | undefined;
  types: RecordTypeSummary[];
  typeFields: TypeFields | undefined;
  issues: ErrorIssue[];
  readOnly: boolean;
  onChange: (source: SourceDraft) => void;
};

export function RecordSourceEditor(props: Props) {
  const { source, path, allowAllTypes, webhookEvents, types, typeFields, issues, readOnly, onChange } = props;
  const id = useId();
  const messagesAt = (...rest: (string | number)[]) =>
    issuesUnder(issues, [...path, ...rest]).map((issue) => issue.message);
  const change = (patch: Partial<SourceDraft>) => onChange({ ...source, ...patch });

  const allFields = typeFields?.fields ?? [];
  const visible = allFields.filter(isVisibleField).sort((a, b) => a.position - b.position);
  const standingOf = (fieldId: string) => {
    // A type the viewer cannot read, or a watched field masked for them: nothing is named.
    if (!typeFields || fieldId === MASKED_VALUE) return 'hidden' as const;
    const field = allFields.find((candidate) => candidate.id === fieldId);
    if (!field) return fieldId === '' ? ('visible' as const) : ('gone' as const);
    return field.restricted ? ('hidden' as const) : ('visible' as const);
  };
  // A saved type the viewer cannot read is still shown, by its id.
  const knownType = !source.typeId || types.some((type) => type.id === source.typeId);
  const narrowed = Boolean(source.typeId);
  // By position: several masked watched fields read alike.
  const hiddenChanged = source.changedFieldIds.flatMap((fieldId, index) =>
    standingOf(fieldId) === 'visible' ? [] : [{ fieldId, index }],
  );
  const changedMessages = (fieldId: string, index = source.changedFieldIds.indexOf(fieldId)) => {
    const messages = messagesAt('changedFieldIds', index);
    return messages.length && standingOf(fieldId) === 'hidden' ? [HIDDEN_FIELD_MESSAGE] : messages;
  };

  return (
    <div className="record-source" data-testid="record-source" data-path={path.join('.')}>
      <label htmlFor={`${id}-type`} className="field-label">
        Record type
      </label>
      <select
        id={`${id}-type`}
        value={source.typeId}
        disabled={readOnly}
        // Another type has other fields: its filters and changed fields start empty.
        onChange={(event) => change({ typeId: event.target.value, filters: [], changedFieldIds: [] })}
        data-testid="webhook-record-type"
      >
        <option value="">{allowAllTypes ? 'All accessible types' : 'Choose a record type…'}</option>
        {types.map((type) => (
          <option key={type.id} value={type.id}>
            {type.name}
          </option>
        ))}
        {knownType ? null : <option value={source.typeId}>Type {source.typeId}</option>}
      </select>
      <IssueMessages messages={messagesAt('query', 'typeId')} />

      {narrowed ? (
        <>
          <label>
            Search
            <input
              value={source.search}
              readOnly={readOnly}
              placeholder="Optional: only records whose text contains this"
              onChange={(event) => change({ search: event.target.value })}
              data-testid="record-source-search"
            />
            <IssueMessages messages={messagesAt('query', 'search')} />
          </label>

          <div className="record-filters" data-testid="record-filters">
            <span className="field-label">Filters</span>
            {typeFields === undefined ? <span className="hint">Loading the fields…</span> : null}
            {source.filters.map((filter, index) => (
              <RecordFilterRow
                key={index}
                filter={filter}
                fields={visible}
                standing={standingOf(filter.fieldId)}
                messages={messagesAt('query', 'filters', index)}
                readOnly={readOnly}
                onChange={(next) =>
                  change({ filters: source.filters.map((each, at) => (at === index ? next : each)) })
                }
                onRemove={() => change({ filters: source.filters.filter((_each, at) => at !== index) })}
              />
            ))}
            {source.filters.length === 0 ? (
              <span className="hint">No filters: every record of the type.</span>
            ) : null}
            <IssueMessages
              messages={issuesUnder(issues, [...path, 'query', 'filters'])
                .filter((issue) => issue.path.length === path.length + 2)
                .map((issue) => issue.message)}
            />
            {readOnly || !typeFields ? null : (
              <LinkButton
                small
                disabled={source.filters.length >= QUERY_FILTERS_MAX}
                onClick={() => change({ filters: [...source.filters, { fieldId: '', op: '', text: '' }] })}
                testId="record-filter-add"
              >
                Add a filter
              </LinkButton>
            )}
          </div>

          <fieldset className="record-changed-fields" data-testid="record-changed-fields">
            <legend className="field-label">Changed fields</legend>
            <span className="hint">
              record.updated only when one of these changes; none ticked: any change.
            </span>
            <div className="checklist">
              {visible.map((field) => (
                <label key={field.id} className="inline">
                  <input
                    type="checkbox"
                    checked={source.changedFieldIds.includes(field.id)}
                    disabled={readOnly}
                    onChange={(event) =>
                      change({
                        changedFieldIds: event.target.checked
                          ? [...source.changedFieldIds, field.id]
                          : source.changedFieldIds.filter((fieldId) => fieldId !== field.id),
                      })
                    }
                    data-testid="record-changed-field"
                    data-field-name={field.name}
                  />
                  {field.name}
                  <IssueMessages messages={changedMessages(field.id)} />
                </label>
              ))}
            </div>
            {hiddenChanged.map(({ fieldId, index }) => (
              <div key={index} className="record-filter" data-testid="record-changed-hidden">
                <span className="hint">
                  {standingOf(fieldId) === 'gone'
                    ? 'A field that no longer exists'
                    : 'A field you cannot see'}
                </span>
                {fieldId === MASKED_VALUE ? (
                  <code data-testid="record-changed-mask">{MASKED_VALUE}</code>
                ) : null}
                {readOnly ? null : (
                  <LinkButton
                    small
                    onClick={() =>
                      change({ changedFieldIds: source.changedFieldIds.filter((_each, at) => at !== index) })
                    }
                    testId="record-changed-hidden-remove"
                  >
                    Remove
                  </LinkButton>
                )}
                <IssueMessages messages={changedMessages(fieldId, index)} />
              </div>
            ))}
          </fieldset>
        </>
      ) : null}

      {webhookEvents ? (
        <SourceEvents
          source={source}
          webhookEvents={webhookEvents}
          messages={messagesAt('events')}
          readOnly={readOnly}
          onChange={(events) => change({ events })}
        />
      ) : null}
    </div>
  );
}

/** The record events one of several sources is for; none ticked: all of the webhook's. */
function SourceEvents({
  source,
  webhookEvents,
  messages,
  readOnly,
  onChange,
}: {
  source: SourceDraft;
  webhookEvents: string[];
  messages: string[];
  readOnly: boolean;
  onChange: (events: string[] | undefined) => void;
}) {
  const chosen = source.events ?? [];
  const choices = [...new Set([...sourceEventChoices(webhookEvents), ...chosen])];
  return (
    <fieldset className="record-source-events" data-testid="record-source-events">
      <legend className="field-label">Events of this source</legend>
      <div className="checklist">
        {choices.map((event) => (
          <label key={event} className="inline">
            <input
              type="checkbox"
              checked={chosen.includes(event)}
              disabled={readOnly}
              onChange={(change) => {
                const next = change.target.checked
                  ? [...chosen, event]
                  : chosen.filter((name) => name !== event);
                onChange(next.length ? next : undefined);
              }}
              data-testid="record-source-event"
              data-event={event}
            />
            <code>{event}</code>
          </label>
        ))}
      </div>
      <span className="hint">None ticked: all of the webhook’s record events.</span>
      <IssueMessages messages={messages} />
    </fieldset>
  );
}
