// Settings → Connected apps: the chat assistants the signed-in person connected over OAuth in the
// current workspace (docs/api.md#connected-apps). Only their own: nobody sees another's, as with
// keys. Disconnect revokes the app's tokens at once.
import { useState } from 'react';
import { api, type ConnectedApp } from '../api';
import { CardList, Facts } from '../components/CardList';
import { ConfirmDialog, DangerButton } from '../components/Dialog';
import { PageHeader } from '../components/PageHeader';
import { DateTime } from '../format';
import { useSession } from '../session';
import { useLoaded } from '../hooks/useLoaded';

const readConnectedApps = async () => (await api.connectedApps()).data;
const NO_APPS = { text: 'You have not connected any app in this workspace.', testId: 'connected-apps-empty' };

export function ConnectedAppsPage() {
  const session = useSession();
  const apps = useLoaded(readConnectedApps);
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
      <CardList list={apps} empty={NO_APPS} testId="connected-app-list">
        {(app) => (
          <li className="card" key={app.id} data-testid="connected-app-card" data-app-id={app.id}>
            <div className="card-header">
              <h3 data-testid="connected-app-name">{app.clientName}</h3>
              <span className="tag">{app.redirectHost}</span>
            </div>
            <Facts
              facts={[
                [
                  'Access',
                  app.readOnly ? 'Read only: changes nothing' : 'Reads and changes, as your role allows',
                  'connected-app-access',
                ],
                ['Created at', <DateTime value={app.createdAt} testId="connected-app-created-at" />],
                [
                  'Last used',
                  app.lastUsedAt ? <DateTime value={app.lastUsedAt} /> : 'Never',
                  'connected-app-last-used',
                ],
              ]}
            />
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
            void apps.reload();
          }}
          onCancel={() => setDisconnecting(undefined)}
        />
      ) : null}
    </section>
  );
}
