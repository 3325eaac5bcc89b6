// Settings → Connected apps: the chat assistants the signed-in person connected over OAuth in the
// current workspace (docs/api.md#connected-apps). Only their own: nobody sees another's, as with
// keys. Disconnect revokes the app's tokens at once.
import { useState } from 'react';
import { api, type ConnectedApp } from '../api';
import { CardList } from '../components/CardList';
import { ConfirmDialog, DangerButton } from '../components/Dialog';
import { PageHeader } from '../components/PageHeader';
import { DateTime } from '../format';
import { useSession } from '../session';
import { useLoaded } from '../hooks/useLoaded';

const readConnectedApps = async () => (await api.connectedApps()).data;

export function ConnectedAppsPage() {
  const session = useSession();
  const { value: apps, error: loadError, reload: load } = useLoaded(readConnectedApps);
  const [disconnecting, setDisconnecting] = useState<ConnectedApp>();

  return (
    <section data-testid="connected-apps-page">
      <PageHeader
        title="Connected apps"
        lead={
          <>
            Chat assistants you connected over OAuth act as you in <strong>{session.workspace.name}</strong>,
            with your role&rsquo;s access. Only you see your connected apps. To connect one, give it the MCP
            endpoint <code data-testid="connected-apps-mcp-url">{session.mcpUrl}</code>.
          </>
        }
      />
      <CardList
        items={apps}
        loadError={loadError}
        empty="You have not connected any app in this workspace."
        emptyTestId="connected-apps-empty"
        testId="connected-app-list"
      >
        {(app) => (
          <li className="card" key={app.id} data-testid="connected-app-card" data-app-id={app.id}>
            <div className="card-header">
              <h3 data-testid="connected-app-name">{app.clientName}</h3>
              <span className="tag">{app.redirectHost}</span>
            </div>
            <dl className="facts">
              <dt>Access</dt>
              <dd data-testid="connected-app-access">
                {app.readOnly ? 'Read only: changes nothing' : 'Reads and changes, as your role allows'}
              </dd>
              <dt>Created at</dt>
              <dd>
                <DateTime value={app.createdAt} testId="connected-app-created-at" />
              </dd>
              <dt>Last used</dt>
              <dd data-testid="connected-app-last-used">
                {app.lastUsedAt ? <DateTime value={app.lastUsedAt} /> : 'Never'}
              </dd>
            </dl>
            <div className="card-actions">
              <DangerButton
                label="Disconnect"
                onClick={() => setDisconnecting(app)}
                testId="connected-app-disconnect"
              />
            </div>
          </li>
        )}
      </CardList>
      {disconnecting ? (
        <ConfirmDialog
          title="Disconnect app"
          message={
            <p>
              Disconnect <strong>{disconnecting.clientName}</strong>? It stops working at once; to use it
              again, connect it again from the app.
            </p>
          }
          confirmLabel="Disconnect"
          action={() => api.disconnectApp(disconnecting.id)}
          onDone={() => {
            setDisconnecting(undefined);
            void load();
          }}
          onCancel={() => setDisconnecting(undefined)}
        />
      ) : null}
    </section>
  );
}
