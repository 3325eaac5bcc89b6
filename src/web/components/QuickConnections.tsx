// The quick connections (Settings → API keys → Add, and the onboarding wizard): a key-based client
// gets a key named after it that expires in 365 days; an OAuth connector gets instructions only.
import { useEffect, useState } from 'react';
import { api, errorMessage, type CreatedKey, type QuickConnection } from '../api';
import { useSession } from '../session';
import { useSubmit } from '../hooks/useSubmit';
import { CopyButton } from './CopyButton';
import { ErrorMessage } from './Dialog';

type Props = {
  canCreate: boolean;
  onCreated: (created: CreatedKey) => void;
};

export function QuickConnections({ canCreate, onCreated }: Props) {
  const { mcpUrl } = useSession();
  const [connections, setConnections] = useState<QuickConnection[] | undefined>();
  const [selected, setSelected] = useState<QuickConnection | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const creating = useSubmit();
  const busy = creating.busy ? selected?.id : undefined;
  const error = loadError ?? creating.error;

  useEffect(() => {
    let live = true;
    api
      .quickConnections()
      .then((answer) => live && setConnections(answer.data))
      .catch((failure: unknown) => live && setLoadError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, []);

  const choose = async (connection: QuickConnection) => {
    creating.setError(undefined);
    setSelected(connection);
    if (connection.auth !== 'apiKey') return;
    await creating.run(async () => {
      onCreated(await api.createQuickKey(connection.id));
      setSelected(undefined);
    });
  };

  if (!connections) {
    return error ? <ErrorMessage message={error} /> : <p className="muted">Loading quick connections…</p>;
  }

  return (
    <div className="quick-connections" data-testid="quick-connections">
      <ul className="quick-list">
        {connections.map((connection) => {
          const disabled = connection.auth === 'apiKey' && (!canCreate || busy !== undefined);
          return (
            <li key={connection.id}>
              <button
                type="button"
                className={selected?.id === connection.id ? 'quick-item quick-item-selected' : 'quick-item'}
                data-testid={`quick-connection-${connection.id}`}
                data-auth={connection.auth}
                disabled={disabled}
                onClick={() => void choose(connection)}
              >
                <span className="quick-label">{connection.label}</span>
                <span className="quick-kind">
                  {busy === connection.id
                    ? 'Creating key…'
                    : connection.auth === 'apiKey'
                      ? 'API key, 365 days'
                      : 'Sign in with OAuth'}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {selected ? (
        <div className="quick-instructions" data-testid="quick-instructions">
          <h3>{selected.label}</h3>
          <p className="pre-line">{selected.instructions}</p>
          {selected.auth === 'oauth' ? (
            <>
              <p className="quick-url">
                MCP server URL to paste: <code data-testid="quick-mcp-url">{mcpUrl}</code>{' '}
                <CopyButton text={mcpUrl} label="Copy URL" testId="quick-mcp-url-copy" />
              </p>
              <p className="muted" data-testid="quick-no-key">
                No API key is created for this connection: the app signs you in over OAuth and appears in
                Settings → Connected apps.
              </p>
            </>
          ) : null}
        </div>
      ) : null}
      <ErrorMessage message={error} />
    </div>
  );
}
