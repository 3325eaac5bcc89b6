// The Record settings of the webhook dialog: the record type its record events follow, checked
// against the schema revision; sources, search, filters and changed fields set through the API are
// kept and explained, not edited here.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { api, type RecordTypeSummary, type WebhookView } from '../api';
import { isRecordEvent, type WebhookDraft } from '../webhooks';

/** The record model as the dialog needs it; undefined while it loads. */
export type RecordModelSummary = { schemaRevision: number; types: RecordTypeSummary[] };

/** The record types for the record settings, and the schema revision they were read at. */
export function useRecordModel(): RecordModelSummary | undefined {
  const [model, setModel] = useState<RecordModelSummary>();
  useEffect(() => {
    let live = true;
    api
      .discoverModel()
      // A failed read leaves no types and no revision to check against (-1).
      .then((answer) => live && setModel(answer))
      .catch(() => live && setModel({ schemaRevision: -1, types: [] }));
    return () => {
      live = false;
    };
  }, []);
  return model;
}

export function RecordSettings({
  webhook,
  draft,
  model,
  readOnly,
  onChange,
}: {
  webhook: WebhookView | undefined;
  draft: WebhookDraft;
  model: RecordModelSummary | undefined;
  readOnly: boolean;
  onChange: (typeId: string) => void;
}) {
  const id = useId();
  const sources = webhook?.recordSources ?? null;
  const trigger = webhook?.recordTrigger ?? null;
  const subscribes = draft.events.some(isRecordEvent);
  const types = model?.types ?? [];
  // A saved type the viewer cannot read is still shown, by its id.
  const known = !draft.typeId || types.some((type) => type.id === draft.typeId);
  const narrowed =
    trigger && (trigger.query.search || trigger.query.filters?.length || trigger.changedFieldIds?.length);

  let note: ReactNode = null;
  if (sources?.length) {
    note = (
      <p className="hint" data-testid="webhook-record-sources">
        This webhook follows {sources.length === 1 ? '1 record source' : `${sources.length} record sources`}{' '}
        (set through the API); they are kept as they are.
      </p>
    );
  } else if (narrowed) {
    note = (
      <p className="hint" data-testid="webhook-record-query">
        The saved source also has a search, filters or changed fields (set through the API); choosing another
        type replaces them.
      </p>
    );
  }

  return (
    <fieldset className="link-field" data-testid="webhook-record-settings">
      <legend>Record settings</legend>
      <label htmlFor={id} className="field-label">
        Record type
      </label>
      <select
        id={id}
        value={draft.typeId}
        disabled={readOnly || Boolean(sources?.length) || !model}
        onChange={(event) => onChange(event.target.value)}
        data-testid="webhook-record-type"
      >
        <option value="">All accessible types</option>
        {types.map((type) => (
          <option key={type.id} value={type.id}>
            {type.name}
          </option>
        ))}
        {known ? null : <option value={draft.typeId}>Type {draft.typeId}</option>}
      </select>
      <span className="hint">
        {subscribes
          ? 'Record events of this type only, as the record owner can read them.'
          : 'Applies to record events; none is selected.'}
        {model && model.schemaRevision >= 0 ? (
          <>
            {' '}
            Checked against schema revision{' '}
            <span data-testid="webhook-schema-revision">{model.schemaRevision}</span>.
          </>
        ) : null}
      </span>
      {note}
    </fieldset>
  );
}
