// The landing page of a signed-in person: where they are, with which role, and where to go; with
// Read access All on API & Webhooks, the health of the workspace's webhooks (the ones in trouble
// by name) and the chart of their deliveries by outcome.
import { DeliveryStatsPanel } from '../components/deliveries/DeliveryStatsPanel';
import { WorkspaceHealthPanel } from '../components/webhooks/WorkspaceHealthPanel';
import { Link } from '../router';
import { useSession } from '../session';

export function DashboardPage() {
  const session = useSession();
  const { permissions } = session;
  return (
    <section data-testid="dashboard">
      <h1>Dashboard</h1>
      <div className="panel">
        <dl className="facts">
          <dt>Workspace</dt>
          <dd data-testid="dashboard-workspace">{session.workspace.name}</dd>
          <dt>Your role</dt>
          <dd data-testid="dashboard-role">{session.role.name}</dd>
          <dt>Signed in as</dt>
          <dd>
            {session.user.name} ({session.user.email})
          </dd>
          {permissions.apiRead ? (
            <>
              <dt>MCP endpoint</dt>
              <dd>
                <code>{session.mcpUrl}</code>
              </dd>
            </>
          ) : null}
        </dl>
        {session.member.status === 'inactive' ? (
          <p className="notice notice-warning">Your membership of this workspace is inactive.</p>
        ) : null}
      </div>
      {session.onboardingPending && permissions.manageWorkspace ? (
        <div className="panel notice">
          Finish setting up your workspace: <Link to="/onboarding">connect your tools</Link>.
        </div>
      ) : null}
      {permissions.apiRead ? (
        <>
          <WorkspaceHealthPanel />
          <DeliveryStatsPanel title="Webhook deliveries" testId="dashboard-deliveries" />
        </>
      ) : null}
      <ul className="link-list" data-testid="dashboard-links">
        <li>
          <Link to="/records">Records</Link>
          <span className="muted"> Contacts, deals and the other records your role can read.</span>
        </li>
        {permissions.apiRead ? (
          <>
            <li>
              <Link to="/webhooks">Webhooks</Link>
              <span className="muted"> Signed JSON POSTs of CRM events to your systems.</span>
            </li>
            <li>
              <Link to="/deliveries">Deliveries</Link>
              <span className="muted"> Every delivery, its attempts and Resend.</span>
            </li>
          </>
        ) : null}
        <li>
          <Link to="/api-reference">API reference</Link>
          <span className="muted"> The REST API: operations, parameters, responses and customCodes.</span>
        </li>
        {permissions.apiRead ? (
          <li>
            <Link to="/settings/api-keys">API keys</Link>
            <span className="muted"> Keys for MCP and REST clients.</span>
          </li>
        ) : null}
        {permissions.manageWorkspace ? (
          <>
            <li>
              <Link to="/settings/members">Members</Link>
              <span className="muted"> Who belongs to this workspace.</span>
            </li>
            <li>
              <Link to="/settings/roles">Roles</Link>
              <span className="muted"> What each role may do.</span>
            </li>
            <li>
              <Link to="/settings/connected-accounts">Connected accounts</Link>
              <span className="muted"> Messaging accounts whose activity your webhooks receive.</span>
            </li>
          </>
        ) : null}
      </ul>
    </section>
  );
}
