// One webhook: Add (a new one), edit by opening a row, or read-only for roles without Edit
// (docs/api.md#rest-endpoints, docs/api.md#permissions). Saved secret and header
// values are shown only to people with Edit (and Admins); others read `********` and the header
// names. Delete, after a confirmation, for roles with Delete.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, type WebhookView, type WebhookWrite } from '../../api';
import { DateTime } from '../../format';
import { useSession } from '../../session';
import { useSubmit } from '../../hooks/useSubmit';
import { maySteer } from '../../webhooks';
import { WebhookDraftError, createOf, updateOf, type WebhookDraft } from '../../webhook-draft';
import { ConfirmDialog, DangerButton, Dialog, DialogActions, ErrorMessage } from '../Dialog';
import { Loading } from '../ListParts';
import { RecordSettings, useRecordModel } from './WebhookRecordSettings';
import { SendingFields } from './WebhookSendingFields';
import { RotateSecretDialog } from './RotateSecretDialog';
import { RECORD_SETTINGS_REFUSED, useRecordIssues } from './useRecordIssues';
import { useUnsavedEdits, useWebhookDraft } from './useWebhookDraft';
import { MainFields } from './WebhookMainFields';
import { DisabledByService } from '../alerts/DisabledByService';

export type WebhookRights = { create: boolean; edit: boolean; delete: boolean };

type Props = {
  /** Absent: Add a new webhook. */
  webhook?: WebhookView;
  rights: WebhookRights;
  onClose: () => void;
  onSaved: (webhook: WebhookView, created: boolean) => void;
  onDeleted: (webhook: WebhookView) => void;
  onShowDeliveries?: (webhook: WebhookView) => void;
};

export function WebhookDialog({ webhook, rights, onClose, onSaved, onDeleted, onShowDeliveries }: Props) {
  const session = useSession();
  const isNew = webhook === undefined;
  const editable = isNew ? rights.create : rights.edit;
  // Someone else's record webhook: only its owner or an Admin changes where or how it sends.
  const steerable = isNew || maySteer(webhook, session);
  // People with Edit see the saved values; everyone else reads them masked.
  const revealsSecrets = !isNew && rights.edit;
  const { secrets, secretsError, initial, draft, setDraft } = useWebhookDraft(webhook, revealsSecrets);
  const model = useRecordModel();
  const record = useRecordIssues(draft);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [rotating, setRotating] = useState(false);
  const { busy, error, setError, run } = useSubmit();

  // The dialog focuses its first field when it opens; with Edit the fields come after the values.
  const urlInput = useRef<HTMLInputElement>(null);
  const loaded = draft !== undefined;
  useEffect(() => {
    if (loaded && revealsSecrets) urlInput.current?.focus();
  }, [loaded, revealsSecrets]);

  // Without the saved values an editor cannot tell what changed: the dialog stays read-only.
  const readOnly = !editable || (revealsSecrets && !secrets);
  // Everything but the description, for an editor of someone else's record webhook.
  const fixed = readOnly || !steerable;
  const schemaRevision = model && model.schemaRevision >= 0 ? model.schemaRevision : undefined;
  const title = isNew ? 'Add webhook' : readOnly ? 'Webhook' : 'Edit webhook';

  // Unsaved edits: closing asks first, and leaving the page asks the browser's question.
  const dirty = useUnsavedEdits(initial, draft, readOnly);
  const requestClose = () => (dirty ? setConfirmDiscard(true) : onClose());

  if (confirmDiscard) {
    return (
      <ConfirmDialog
        title="Discard changes?"
        message={<p>This webhook has changes that are not saved. Close it and lose them?</p>}
        confirmLabel="Discard changes"
        action={async () => undefined}
        onDone={onClose}
        onCancel={() => setConfirmDiscard(false)}
      />
    );
  }

  if (rotating && webhook) {
    return (
      <RotateSecretDialog
        webhook={webhook}
        onCancel={() => setRotating(false)}
        onRotated={(rotated) => onSaved(rotated, false)}
      />
    );
  }

  if (confirmDelete && webhook) {
    return (
      <ConfirmDialog
        title="Delete webhook"
        message={
          <p>
            Delete the webhook to <strong className="break">{webhook.url}</strong>? It receives nothing from
            now on. Its deliveries stay in the log. This cannot be undone.
          </p>
        }
        confirmLabel="Delete webhook"
        action={() => api.deleteWebhook(webhook.id)}
        onDone={() => onDeleted(webhook)}
        onCancel={() => setConfirmDelete(false)}
      />
    );
  }

  const change = (patch: Partial<WebhookDraft>) => {
    setError(undefined);
    record.clear();
    setDraft((current) => (current ? { ...current, ...patch } : current));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft || !initial || readOnly) return;
    let write: WebhookWrite | undefined;
    // A new webhook's body is a create (url and events required), an existing one's an update.
    let save: (() => Promise<WebhookView>) | undefined;
    try {
      if (webhook) {
        const update = updateOf(webhook, initial, draft, schemaRevision);
        write = update;
        save = update && (() => api.updateWebhook(webhook.id, update));
      } else {
        const create = createOf(draft, schemaRevision);
        write = create;
        save = () => api.createWebhook(create);
      }
    } catch (failure) {
      if (failure instanceof WebhookDraftError) {
        setError(failure.message);
        return;
      }
      throw failure;
    }
    if (!write || !save) {
      onClose();
      return;
    }
    if (!record.check(draft, write)) {
      setError(RECORD_SETTINGS_REFUSED);
      return;
    }
    const send = save;
    void run(async () => {
      try {
        const saved = await send();
        onSaved(saved, isNew);
      } catch (failure) {
        throw record.refused(failure);
      }
    });
  };

  const footer = (
    <DialogActions
      start={
        webhook ? (
          <>
            {rights.delete ? (
              <DangerButton
                label="Delete"
                disabled={busy}
                onClick={() => {
                  setError(undefined);
                  setConfirmDelete(true);
                }}
                testId="webhook-delete"
              />
            ) : null}
            {onShowDeliveries ? (
              <button
                type="button"
                className="button"
                onClick={() => (dirty ? setConfirmDiscard(true) : onShowDeliveries(webhook))}
                data-testid="webhook-dialog-deliveries"
              >
                Show deliveries
              </button>
            ) : null}
          </>
        ) : undefined
      }
      onCancel={readOnly ? undefined : requestClose}
      label={readOnly ? 'Close' : isNew ? 'Add webhook' : 'Save'}
      busyLabel={isNew ? 'Adding…' : 'Saving…'}
      busy={busy}
      onClick={readOnly ? onClose : undefined}
      testId={readOnly ? 'webhook-close' : 'webhook-save'}
    />
  );

  return (
    <Dialog title={title} onClose={requestClose} testId="webhook-dialog" wide>
      {!draft ? (
        <Loading testId="webhook-loading" />
      ) : (
        <form className="form webhook-form" onSubmit={submit} data-read-only={readOnly ? 'true' : 'false'}>
          {!editable && webhook ? (
            <p className="notice" data-testid="webhook-read-only">
              Your role can read this webhook but not change it. Secret and header values are hidden.
            </p>
          ) : null}
          {editable && webhook && !steerable ? (
            <p className="notice" data-testid="webhook-owned-by-another">
              This webhook sends records as {webhook.recordOwnerName ?? 'its record owner'} can read them;
              only its owner or an administrator can change where or how it sends.
            </p>
          ) : null}
          <DisabledByService webhook={webhook} canEnable={editable && steerable} onEnabled={onSaved} />
          <ErrorMessage message={secretsError} />
          <MainFields draft={draft} urlInput={urlInput} readOnly={readOnly} fixed={fixed} onChange={change} />
          <SendingFields
            webhook={webhook}
            draft={draft}
            savedValuesShown={Boolean(secrets)}
            readOnly={fixed}
            onChange={change}
            // A saved secret, by its owner or an Admin with Edit, with no unsaved edits to lose.
            onRotate={
              webhook?.hasSecret && !fixed && !dirty
                ? () => {
                    setError(undefined);
                    setRotating(true);
                  }
                : undefined
            }
          />

          <RecordSettings
            draft={draft}
            model={model}
            typeFields={record.typeFields}
            issues={record.issues}
            readOnly={fixed}
            onChange={(settings) => change({ record: settings })}
          />

          {webhook ? (
            <p className="hint record-meta" data-testid="webhook-meta">
              Created <DateTime value={webhook.createdAt} /> · Updated <DateTime value={webhook.updatedAt} />
            </p>
          ) : null}
          <ErrorMessage message={error} />
          {footer}
        </form>
      )}
    </Dialog>
  );
}
