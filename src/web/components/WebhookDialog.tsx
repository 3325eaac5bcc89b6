// One webhook: Add (a new one), edit by opening a row, or read-only for roles without Edit
// (spec.md, "Webhook", "Permissions on the API & Webhooks role row"). Saved secret and header
// values are shown only to people with Edit (and Admins); others read `********` and the header
// names. Delete, after a confirmation, for roles with Delete.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorMessage, type WebhookSecrets, type WebhookView, type WebhookWrite } from '../api';
import { BODY_TEMPLATE_MAX, WEBHOOK_DESCRIPTION_MAX, WEBHOOK_SECRET_MAX } from '../../shared/limits';
import { DateTime } from '../format';
import { useSession } from '../session';
import { useSubmit } from '../useSubmit';
import {
  EMPTY_DRAFT,
  WebhookDraftError,
  createOf,
  draftOfWebhook,
  maySteer,
  parseHeaderLines,
  updateOf,
  type WebhookDraft,
} from '../webhooks';
import { ConfirmDialog, Dialog, DialogActions, ErrorMessage } from './Dialog';
import { EventsField } from './WebhookEventsField';
import { RecordSettings, type RecordModelSummary } from './WebhookRecordSettings';

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
  const [secrets, setSecrets] = useState<WebhookSecrets>();
  const [secretsError, setSecretsError] = useState<string>();
  const [initial, setInitial] = useState<WebhookDraft | undefined>(() =>
    isNew ? EMPTY_DRAFT : revealsSecrets ? undefined : draftOfWebhook(webhook, undefined),
  );
  const [draft, setDraft] = useState<WebhookDraft | undefined>(initial);
  const [model, setModel] = useState<RecordModelSummary>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { busy, error, setError, run } = useSubmit();

  // The saved secret and header values (GET /app/api/webhooks/:id/secrets), for Edit only.
  useEffect(() => {
    if (!webhook || !revealsSecrets) return;
    let live = true;
    api
      .webhookSecrets(webhook.id)
      .then((answer) => {
        if (!live) return;
        const start = draftOfWebhook(webhook, answer);
        setSecrets(answer);
        setInitial(start);
        setDraft(start);
      })
      .catch((failure: unknown) => {
        if (!live) return;
        setSecretsError(errorMessage(failure));
        const start = draftOfWebhook(webhook, undefined);
        setInitial(start);
        setDraft(start);
      });
    return () => {
      live = false;
    };
  }, [webhook, revealsSecrets]);

  // The record types for the record settings, and the schema revision they were read at.
  useEffect(() => {
    let live = true;
    api
      .discoverModel()
      .then((answer) => live && setModel(answer))
      .catch(() => live && setModel({ schemaRevision: -1, types: [] }));
    return () => {
      live = false;
    };
  }, []);

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
    setDraft((current) => (current ? { ...current, ...patch } : current));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft || !initial || readOnly) return;
    let write: WebhookWrite | undefined;
    try {
      write = webhook ? updateOf(webhook, initial, draft, schemaRevision) : createOf(draft, schemaRevision);
    } catch (failure) {
      if (failure instanceof WebhookDraftError) {
        setError(failure.message);
        return;
      }
      throw failure;
    }
    if (!write) {
      onClose();
      return;
    }
    const body = write;
    void run(async () => {
      const saved = webhook
        ? await api.updateWebhook(webhook.id, body)
        : await api.createWebhook(body as WebhookWrite & { url: string; events: string[] });
      onSaved(saved, isNew);
    });
  };

  const footer = (
    <DialogActions
      extra={
        webhook ? (
          <>
            {rights.delete ? (
              <button
                type="button"
                className="button button-danger-outline"
                disabled={busy}
                onClick={() => {
                  setError(undefined);
                  setConfirmDelete(true);
                }}
                data-testid="webhook-delete"
              >
                Delete
              </button>
            ) : null}
            {onShowDeliveries ? (
              <button
                type="button"
                className="button"
                onClick={() => onShowDeliveries(webhook)}
                data-testid="webhook-dialog-deliveries"
              >
                Show deliveries
              </button>
            ) : null}
            <span className="spacer" />
          </>
        ) : null
      }
      onCancel={readOnly ? undefined : onClose}
      label={readOnly ? 'Close' : isNew ? 'Add webhook' : 'Save'}
      busyLabel={isNew ? 'Adding…' : 'Saving…'}
      busy={busy}
      onClick={readOnly ? onClose : undefined}
      testId={readOnly ? 'webhook-close' : 'webhook-save'}
    />
  );

  return (
    <Dialog title={title} onClose={onClose} testId="webhook-dialog" wide>
      {!draft ? (
        <p className="muted" data-testid="webhook-loading">
          Loading…
        </p>
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
          <ErrorMessage message={secretsError} />
          <label>
            URL
            <input
              ref={urlInput}
              required
              value={draft.url}
              readOnly={fixed}
              maxLength={4096}
              placeholder="https://example.com/hooks/crm"
              onChange={(event) => change({ url: event.target.value })}
              data-testid="webhook-url"
            />
            {fixed ? null : (
              <span className="hint">
                HTTP or HTTPS. Without a scheme, https:// is added. With custom headers the URL must use
                https:// (or http:// on localhost).
              </span>
            )}
          </label>
          <label>
            Description
            <input
              value={draft.description}
              readOnly={readOnly}
              maxLength={WEBHOOK_DESCRIPTION_MAX}
              placeholder="Optional"
              onChange={(event) => change({ description: event.target.value })}
              data-testid="webhook-description"
            />
          </label>

          <EventsField draft={draft} readOnly={fixed} onChange={(events) => change({ events })} />

          <div className="field-static">
            <label className="inline">
              <input
                type="checkbox"
                checked={draft.enabled}
                disabled={fixed}
                onChange={(event) => change({ enabled: event.target.checked })}
                data-testid="webhook-enabled"
              />
              Enabled
            </label>
            <span className="hint">A disabled webhook receives nothing and keeps its settings.</span>
          </div>

          <label>
            Secret
            <input
              className="mono"
              value={draft.secret}
              readOnly={fixed}
              maxLength={WEBHOOK_SECRET_MAX}
              autoComplete="off"
              spellCheck={false}
              placeholder={fixed ? 'No secret' : 'Optional: signs every delivery'}
              onChange={(event) => change({ secret: event.target.value })}
              data-testid="webhook-secret"
            />
            {fixed ? null : (
              <span className="hint">
                Signs every delivery: X-Webhook-Signature is the hex HMAC-SHA256 of the body.
                {webhook?.hasSecret ? ' It cannot be emptied here once set.' : ''}
              </span>
            )}
          </label>

          <label>
            Headers
            <textarea
              className="mono"
              rows={3}
              value={draft.headers}
              readOnly={fixed}
              spellCheck={false}
              placeholder={fixed ? 'No custom headers' : 'X-Api-Token: value\nX-Tenant: acme'}
              onChange={(event) => change({ headers: event.target.value })}
              data-testid="webhook-headers"
            />
            {fixed ? null : (
              <span className="hint">
                One <code>Name: value</code> per line; a line without a colon is ignored, an empty field
                removes all headers. <HeaderCount text={draft.headers} />
              </span>
            )}
          </label>

          <label>
            Body template
            <textarea
              className="mono"
              rows={fixed && !draft.bodyTemplate ? 1 : 4}
              value={draft.bodyTemplate}
              readOnly={fixed}
              maxLength={BODY_TEMPLATE_MAX}
              spellCheck={false}
              placeholder={
                fixed ? 'The standard envelope' : '{ "text": "{{event}} on {{data.record.ref.recordId}}" }'
              }
              onChange={(event) => change({ bodyTemplate: event.target.value })}
              data-testid="webhook-body-template"
            />
            {fixed ? null : (
              <span className="hint">
                Optional JSON that replaces the standard envelope. Placeholders such as{' '}
                <code>{'{{event}}'}</code>, <code>{'{{id}}'}</code> or{' '}
                <code>{'{{data.record.ref.recordId}}'}</code> must sit inside JSON strings.
                {webhook?.bodyTemplate !== null && webhook ? ' It cannot be emptied here once set.' : ''}
              </span>
            )}
          </label>

          <RecordSettings
            webhook={webhook}
            draft={draft}
            model={model}
            readOnly={fixed}
            onChange={(typeId) => change({ typeId })}
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

function HeaderCount({ text }: { text: string }) {
  const headers = parseHeaderLines(text);
  const count = headers ? Object.keys(headers).length : 0;
  return (
    <span data-testid="webhook-header-count">
      {count === 0 ? 'No headers.' : count === 1 ? '1 header.' : `${count} headers.`}
    </span>
  );
}
