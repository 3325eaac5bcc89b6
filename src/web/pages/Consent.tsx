// The authorize step of OAuth for chat assistants (docs/api.md, "OAuth for chat assistants"): the
// signed-in person sees which app asks, what it may do, chooses a workspace, and allows or denies.
// The app reached this page from the authorization server; the answer sends the browser back there.
import { useEffect, useState } from 'react';
import { api, errorMessage, type ConsentDetails } from '../api';
import { DialogActions, ErrorMessage } from '../components/Dialog';
import { useSubmit } from '../hooks/useSubmit';

export function ConsentPage({ uid }: { uid: string }) {
  const [details, setDetails] = useState<ConsentDetails>();
  const [loadError, setLoadError] = useState<string>();
  const [workspaceId, setWorkspaceId] = useState<string>();
  const [readOnly, setReadOnly] = useState(false);
  const { busy, error, run } = useSubmit();

  useEffect(() => {
    let live = true;
    api
      .consentDetails(uid)
      .then((answer) => {
        if (!live) return;
        setDetails(answer);
        const usable = answer.workspaces.filter((workspace) => workspace.refusal === null);
        const current = usable.find((workspace) => workspace.id === answer.currentWorkspaceId);
        setWorkspaceId((current ?? usable[0] ?? answer.workspaces[0])?.id);
      })
      .catch((failure: unknown) => live && setLoadError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [uid]);

  const answer = (decide: () => Promise<{ redirectTo: string }>) =>
    void run(async () => {
      window.location.assign((await decide()).redirectTo);
    });

  const chosen = details?.workspaces.find((workspace) => workspace.id === workspaceId);

  return (
    <main className="auth-page">
      <div className="auth-card consent-card" data-testid="consent-page">
        <div className="brand brand-large">CRM</div>
        {!details ? (
          loadError ? (
            <ErrorMessage message={loadError} />
          ) : (
            <p className="muted">Loading…</p>
          )
        ) : (
          <>
            <h1 data-testid="consent-title">Connect an app?</h1>
            {/* The name is the app's own claim (anyone may register any name); the host is where this
                service will send the browser back, checked against the app's registration. */}
            <p className="consent-identity" data-testid="consent-client">
              &ldquo;<span data-testid="consent-client-name">{details.client.name}</span>&rdquo; — will return
              you to <strong data-testid="consent-redirect-host">{details.client.redirectHost}</strong>
            </p>
            <p className="hint" data-testid="consent-identity-hint">
              The name is what the app calls itself. Where it returns you is what this service checked: allow
              only if that is the app you meant to connect.
            </p>
            <p>
              It asks to act as you in the workspace you choose, on the MCP endpoint{' '}
              <code>{details.resource}</code>, with your role&rsquo;s access there: it can read and change
              what your role lets you read and change (or only read, below), until you disconnect it in
              Settings → Connected apps.
            </p>
            <fieldset className="radio-group" data-testid="consent-workspaces">
              <legend>Workspace</legend>
              {details.workspaces.map((workspace) => (
                <label className="inline" key={workspace.id}>
                  <input
                    type="radio"
                    name="workspace"
                    value={workspace.id}
                    checked={workspace.id === workspaceId}
                    onChange={() => setWorkspaceId(workspace.id)}
                    data-testid="consent-workspace"
                    data-workspace-name={workspace.name}
                  />
                  {workspace.name}
                  {workspace.refusal ? <span className="hint"> — {workspace.refusal}</span> : null}
                </label>
              ))}
            </fieldset>
            <fieldset className="radio-group" data-testid="consent-access">
              <legend>Access</legend>
              <label className="inline" data-testid="consent-read-only-label">
                <input
                  type="checkbox"
                  checked={readOnly}
                  onChange={(event) => setReadOnly(event.target.checked)}
                  data-testid="consent-read-only"
                />
                Only let it read: it gets no tool that creates, changes, resends or deletes anything
              </label>
            </fieldset>
            {chosen?.refusal ? (
              <p className="notice notice-warning" data-testid="consent-refusal">
                {chosen.refusal}
              </p>
            ) : null}
            <ErrorMessage message={error} />
            <DialogActions
              onCancel={() => answer(() => api.denyConsent(uid))}
              cancelLabel="Deny"
              cancelTestId="consent-deny"
              label="Allow"
              busyLabel="Connecting…"
              busy={busy}
              disabled={!workspaceId}
              onClick={() => answer(() => api.allowConsent(uid, { workspaceId: workspaceId!, readOnly }))}
              testId="consent-allow"
            />
          </>
        )}
      </div>
    </main>
  );
}
