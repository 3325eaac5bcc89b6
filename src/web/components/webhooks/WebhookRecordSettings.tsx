// The Record settings of the webhook dialog: the one record source its record events follow
// (recordTrigger), or several (recordSources, up to 50, added and removed here), each edited by
// RecordSourceEditor; checked against the schema revision the model was read at.
import { useEffect, useState } from 'react';
import type { ErrorIssue } from '../../../shared/app-error';
import { api, type RecordTypeSummary } from '../../api';
import {
  EMPTY_SOURCE,
  issuesUnder,
  RECORD_SOURCES_MAX,
  type RecordSettingsDraft,
  type TypeFields,
} from '../../record-sources';
import { LinkButton } from '../Dialog';
import { isRecordEvent } from '../../webhooks';
import type { WebhookDraft } from '../../webhook-draft';
import { RecordSourceEditor } from './RecordSourceEditor';
import { IssueMessages } from './RecordSourceIssues';

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
  draft,
  model,
  typeFields,
  issues,
  readOnly,
  onChange,
}: {
  draft: WebhookDraft;
  model: RecordModelSummary | undefined;
  typeFields: (typeId: string) => TypeFields | undefined;
  /** The dialog's checks or the server's refusal issues, by path. */
  issues: ErrorIssue[];
  readOnly: boolean;
  onChange: (record: RecordSettingsDraft) => void;
}) {
  const { several, sources } = draft.record;
  const subscribes = draft.events.some(isRecordEvent);
  const types = model?.types ?? [];
  const fixed = readOnly || !model;
  const setSources = (next: RecordSettingsDraft['sources']) =>
    onChange(next.length ? { several, sources: next } : { several: false, sources: [EMPTY_SOURCE] });
  const listIssues = issuesUnder(issues, ['recordSources']).filter((issue) => issue.path.length === 1);

  return (
    <fieldset className="link-field" data-testid="webhook-record-settings">
      <legend>Record settings</legend>
      <span className="hint">
        {subscribes
          ? 'Record events of these records only, as the record owner can read them.'
          : 'Applies to record events; none is selected.'}
        {model && model.schemaRevision >= 0 ? (
          <>
            {' '}
            Checked against schema revision{' '}
            <span data-testid="webhook-schema-revision">{model.schemaRevision}</span>.
          </>
        ) : null}
      </span>
      {sources.map((source, index) => (
        <div key={index} className="record-source-entry" data-testid="record-source-entry">
          {several ? (
            <div className="event-group-header">
              <strong>Source {index + 1}</strong>
              {fixed ? null : (
                <LinkButton
                  small
                  onClick={() => setSources(sources.filter((_each, at) => at !== index))}
                  testId="record-source-remove"
                >
                  Remove source
                </LinkButton>
              )}
            </div>
          ) : null}
          <RecordSourceEditor
            source={source}
            path={several ? ['recordSources', index] : ['recordTrigger']}
            allowAllTypes={!several}
            webhookEvents={several ? draft.events : undefined}
            types={types}
            typeFields={source.typeId ? typeFields(source.typeId) : undefined}
            issues={issues}
            readOnly={fixed}
            onChange={(next) =>
              onChange({ several, sources: sources.map((each, at) => (at === index ? next : each)) })
            }
          />
        </div>
      ))}
      <IssueMessages messages={listIssues.map((issue) => issue.message)} />
      {fixed ? null : (
        <button
          type="button"
          className="button button-small"
          disabled={several && sources.length >= RECORD_SOURCES_MAX}
          onClick={() =>
            onChange({
              several: true,
              // The single source becomes the first of several (all types is not a source).
              sources: [...sources.filter((source) => several || source.typeId), EMPTY_SOURCE],
            })
          }
          data-testid="record-source-add"
        >
          {several ? 'Add a source' : 'Follow several sources'}
        </button>
      )}
      {several ? (
        <span className="hint">
          Up to {RECORD_SOURCES_MAX} sources, each a list of one type with its own events.
        </span>
      ) : null}
    </fieldset>
  );
}
