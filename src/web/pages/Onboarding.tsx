// The wizard shown right after sign-up: the same quick connections as Settings → API keys.
import { useState } from 'react';
import { api, type CreatedKey } from '../api';
import { CreatedKeyDialog } from '../components/CreatedKeyDialog';
import { ErrorMessage } from '../components/Dialog';
import { QuickConnections } from '../components/QuickConnections';
import { useRouter } from '../router';
import { useSession, useSessionContext } from '../session';
import { useSubmit } from '../hooks/useSubmit';

/** Skipping and finishing both end the wizard: the connections made are kept either way. */
const ENDINGS = [
  { label: 'Skip', className: 'button', testId: 'onboarding-skip' },
  { label: 'Finish', className: 'button button-primary', testId: 'onboarding-finish' },
];

export function OnboardingPage() {
  const session = useSession();
  const { refresh } = useSessionContext();
  const { navigate } = useRouter();
  const [created, setCreated] = useState<CreatedKey>();
  const [connected, setConnected] = useState<string[]>([]);
  const { busy, error, run } = useSubmit();

  const complete = () =>
    run(async () => {
      await api.completeOnboarding();
      await refresh();
      navigate('/', { replace: true });
    });

  return (
    <section data-testid="onboarding">
      <h1>Welcome to {session.workspace.name}</h1>
      <p className="lead">
        Connect the tools you use to your CRM. Each key-based connection gets its own API key, named after the
        tool and valid for 365 days. You can do this later in Settings → API keys.
      </p>
      <div className="panel">
        <h2>Quick connections</h2>
        <QuickConnections
          canCreate={session.permissions.apiCreate}
          onCreated={(key) => {
            setCreated(key);
            setConnected((names) => [...names, key.apiKey.name]);
          }}
        />
        {connected.length > 0 ? (
          <p className="muted" data-testid="onboarding-connected">
            Connected: {connected.join(', ')}
          </p>
        ) : null}
      </div>
      <ErrorMessage message={error} />
      <div className="actions">
        {ENDINGS.map((ending) => (
          <button
            key={ending.label}
            type="button"
            className={ending.className}
            disabled={busy}
            onClick={() => void complete()}
            data-testid={ending.testId}
          >
            {ending.label}
          </button>
        ))}
      </div>
      {created ? <CreatedKeyDialog created={created} onClose={() => setCreated(undefined)} /> : null}
    </section>
  );
}
