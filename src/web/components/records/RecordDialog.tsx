// One record: every field with its value state, links, assignments and identities; Edit and Move
// to Trash for an active record; Restore and Delete permanently (after a confirmation) in the Trash.
import { useEffect, useState } from 'react';
import { api, errorMessage, type IdentityKind, type RecordType, type RecordView } from '../../api';
import { DateTime } from '../../format';
import { recordTitle } from '../../records';
import { useSubmit } from '../../hooks/useSubmit';
import { ConfirmDialog, DangerButton, Dialog, DialogActions, ErrorMessage } from '../Dialog';
import { RecordForm, type Person } from './RecordForm';
import { RecordValue } from './RecordValue';

const IDENTITY_LABELS: Record<IdentityKind, string> = { email: 'Email', phone: 'Phone', social: 'Social' };

type Props = {
  type: RecordType;
  record: RecordView;
  canWrite: boolean;
  people: Person[];
  onClose: () => void;
  /** The record changed (edited): the list shows the new version. */
  onChanged: (record: RecordView) => void;
  /** The record left the list shown (trashed, restored, or deleted permanently). */
  onRemoved: (record: RecordView, how: 'trashed' | 'restored' | 'deleted') => void;
};

export function RecordDialog({
  type,
  record: initial,
  canWrite,
  people,
  onClose,
  onChanged,
  onRemoved,
}: Props) {
  const [record, setRecord] = useState(initial);
  const [mode, setMode] = useState<'view' | 'edit' | 'confirmDelete'>('view');
  const { busy, error, setError, run } = useSubmit();
  const title = recordTitle(type, record);

  // The list may be a little old: read the record again.
  useEffect(() => {
    let live = true;
    api
      .record(type.id, initial.id)
      .then((fresh) => {
        if (live) setRecord(fresh);
      })
      .catch((failure: unknown) => {
        if (live) setError(errorMessage(failure));
      });
    return () => {
      live = false;
    };
  }, [type.id, initial.id, setError]);

  if (mode === 'confirmDelete') {
    return (
      <ConfirmDialog
        title="Delete permanently"
        message={
          <p>
            Delete <strong>{title}</strong> permanently? Its values are erased at once, also from its earlier
            events. This cannot be undone.
          </p>
        }
        confirmLabel="Delete permanently"
        action={() => api.deleteRecord(type.id, record.id)}
        onDone={() => onRemoved(record, 'deleted')}
        onCancel={() => setMode('view')}
      />
    );
  }

  if (mode === 'edit') {
    return (
      <Dialog title={`Edit ${title}`} onClose={() => setMode('view')} testId="record-edit-dialog" wide>
        <RecordForm
          type={type}
          record={record}
          people={people}
          onCancel={() => setMode('view')}
          onSaved={(saved) => {
            setRecord(saved);
            onChanged(saved);
            setMode('view');
          }}
        />
      </Dialog>
    );
  }

  const trashed = record.status === 'trashed';
  const act = (action: () => Promise<RecordView>, how: 'trashed' | 'restored') =>
    void run(async () => onRemoved(await action(), how));

  const actions = !canWrite ? (
    <DialogActions label="Close" onClick={onClose} />
  ) : trashed ? (
    <DialogActions
      start={
        <DangerButton
          label="Delete permanently"
          disabled={busy}
          onClick={() => {
            setError(undefined);
            setMode('confirmDelete');
          }}
          testId="record-delete"
        />
      }
      onCancel={onClose}
      cancelLabel="Close"
      label="Restore"
      busyLabel="Restoring…"
      busy={busy}
      onClick={() => act(() => api.restoreRecord(type.id, record.id), 'restored')}
      testId="record-restore"
    />
  ) : (
    <DialogActions
      start={
        <DangerButton
          label={busy ? 'Moving…' : 'Move to Trash'}
          disabled={busy}
          onClick={() => act(() => api.trashRecord(type.id, record.id), 'trashed')}
          testId="record-trash"
        />
      }
      onCancel={onClose}
      cancelLabel="Close"
      label="Edit"
      disabled={busy}
      onClick={() => setMode('edit')}
      testId="record-edit"
    />
  );

  return (
    <Dialog title={title} onClose={onClose} testId="record-dialog" wide actions={actions}>
      {trashed ? (
        <p className="notice notice-warning" data-testid="record-trashed-notice">
          In the Trash since {record.trashedAt ? <DateTime value={record.trashedAt} /> : 'recently'}. It is
          erased 30 days after it was trashed unless restored.
        </p>
      ) : null}
      <dl className="facts record-facts" data-testid="record-fields">
        {[...type.fields]
          .sort((a, b) => a.position - b.position)
          .map((field) => (
            <div key={field.id} className="fact" data-testid="record-field" data-field-name={field.name}>
              <dt>
                {field.name}
                {field.kind === 'formula' ? <span className="tag tag-plain">Formula</span> : null}
              </dt>
              <dd>
                <RecordValue field={field} record={record} testId="record-field-value" />
              </dd>
            </div>
          ))}
        <div className="fact">
          <dt>Assigned to</dt>
          <dd data-testid="record-assignments">
            {record.assignments.length ? (
              record.assignments.map((assignee) => assignee.name ?? 'Former member').join(', ')
            ) : (
              <span className="value-missing">—</span>
            )}
          </dd>
        </div>
        <div className="fact">
          <dt>Identities</dt>
          <dd data-testid="record-identities">
            {record.identities.length ? (
              <ul className="plain-list">
                {record.identities.map((identity) => (
                  <li key={`${identity.kind}:${identity.value}`}>
                    <span className="muted">{IDENTITY_LABELS[identity.kind] ?? identity.kind}</span>{' '}
                    {identity.value}
                  </li>
                ))}
              </ul>
            ) : (
              <span className="value-missing">—</span>
            )}
          </dd>
        </div>
      </dl>
      <p className="hint record-meta">
        Created <DateTime value={record.createdAt} /> · Updated <DateTime value={record.updatedAt} /> ·
        Version {record.version}
      </p>
      <ErrorMessage message={error} />
    </Dialog>
  );
}
