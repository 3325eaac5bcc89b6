// The signed-in frame: header (workspace switcher, user, sign out) and the navigation.
import type { ReactNode } from 'react';
import { api } from '../api';
import { Link, useRouter } from '../router';
import { useSession, useSessionContext } from '../session';
import { useSubmit } from '../useSubmit';

export function Layout({ children }: { children: ReactNode }) {
  const session = useSession();
  const { setSession, signOut } = useSessionContext();
  const { navigate } = useRouter();
  const { error, run } = useSubmit();
  const { permissions } = session;

  const switchWorkspace = (workspaceId: string) =>
    run(async () => {
      setSession(await api.switchWorkspace(workspaceId));
      navigate('/');
    });

  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="brand">
          CRM
        </Link>
        <label className="switcher">
          <span className="visually-hidden">Workspace</span>
          <select
            value={session.workspace.id}
            onChange={(event) => void switchWorkspace(event.target.value)}
            data-testid="workspace-switcher"
          >
            {session.workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name}
              </option>
            ))}
          </select>
        </label>
        {error ? (
          <span className="error topbar-error" role="alert">
            {error}
          </span>
        ) : null}
        <div className="topbar-user">
          <span className="user-name" data-testid="current-user" title={session.user.email}>
            {session.user.name || session.user.email}
          </span>
          <button
            type="button"
            className="button button-small"
            data-testid="sign-out"
            onClick={() => void signOut(() => navigate('/sign-in', { replace: true }))}
          >
            Sign out
          </button>
        </div>
      </header>
      <div className="body">
        <nav className="sidebar" aria-label="Main" data-testid="nav">
          <Link to="/" data-testid="nav-dashboard">
            Dashboard
          </Link>
          <Link to="/records" data-testid="nav-records">
            Records
          </Link>
          {permissions.apiRead ? (
            <>
              <Link to="/webhooks" data-testid="nav-webhooks">
                Webhooks
              </Link>
              <Link to="/deliveries" data-testid="nav-deliveries">
                Deliveries
              </Link>
            </>
          ) : null}
          <Link to="/api-reference" data-testid="nav-api-reference">
            API reference
          </Link>
          {permissions.apiRead || permissions.manageWorkspace ? (
            <div className="nav-section">Settings</div>
          ) : null}
          {permissions.apiRead ? (
            <Link to="/settings/api-keys" data-testid="nav-api-keys">
              API keys
            </Link>
          ) : null}
          {permissions.manageWorkspace ? (
            <>
              <Link to="/settings/members" data-testid="nav-members">
                Members
              </Link>
              <Link to="/settings/roles" data-testid="nav-roles">
                Roles
              </Link>
              <Link to="/settings/connected-accounts" data-testid="nav-connected-accounts">
                Connected accounts
              </Link>
            </>
          ) : null}
        </nav>
        <main className="content">{children}</main>
      </div>
    </div>
  );
}
