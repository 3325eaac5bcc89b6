// The webhook dialog's form state: the draft being edited and the draft it started from, which
// `updateOf` compares to send only what changed.
import { useEffect, useState } from 'react';
import { api, errorMessage, type WebhookSecrets, type WebhookView } from '../../api';
import { EMPTY_DRAFT, draftOfWebhook, type WebhookDraft } from '../../webhook-draft';

export type WebhookDraftState = {
  /** The saved secret and header values; only fetched when `revealsSecrets`. */
  secrets: WebhookSecrets | undefined;
  secretsError: string | undefined;
  /** Both undefined until the saved values have loaded (or failed to). */
  initial: WebhookDraft | undefined;
  draft: WebhookDraft | undefined;
  setDraft: (update: (current: WebhookDraft | undefined) => WebhookDraft | undefined) => void;
};

export function useWebhookDraft(
  webhook: WebhookView | undefined,
  revealsSecrets: boolean,
): WebhookDraftState {
  const [secrets, setSecrets] = useState<WebhookSecrets>();
  const [secretsError, setSecretsError] = useState<string>();
  // Without Edit the masked values are all there is, so the draft needs no round trip.
  const [initial, setInitial] = useState<WebhookDraft | undefined>(() =>
    webhook === undefined ? EMPTY_DRAFT : revealsSecrets ? undefined : draftOfWebhook(webhook, undefined),
  );
  const [draft, setDraft] = useState<WebhookDraft | undefined>(initial);

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

  return { secrets, secretsError, initial, draft, setDraft };
}

/**
 * Whether the form differs from what it opened with (never for a read-only one); while it does,
 * leaving the page asks the browser's question.
 */
export function useUnsavedEdits(
  initial: WebhookDraft | undefined,
  draft: WebhookDraft | undefined,
  readOnly: boolean,
): boolean {
  const dirty =
    !readOnly &&
    initial !== undefined &&
    draft !== undefined &&
    JSON.stringify(initial) !== JSON.stringify(draft);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  return dirty;
}
