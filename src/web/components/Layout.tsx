// The signed-in frame: header (workspace switcher, user, sign out) and the navigation. On a narrow
// screen the navigation folds away behind the Menu button (styles.css, "Narrow screens").
import { useState, type ReactNode } from 'react';
import { api } from '../api';
import { Link, useRouter } from '../router';
import { useSession, useSessionContext } from '../session';
import { useSubmit } from '../hooks/useSubmit';

export function Layout({ children }: { children: ReactNode }) {
  const session = useSession();
  const { setSession, signOut } = useSessionContext();
  const { navigate } = useRouter();
  const { error, run } = useSubmit();
  const { permissions } = session;
  const [menuOpen, setMenuOpen] = useState(false);

  const switchWorkspace = (workspaceId: string) =>
    run(async () => {
      setSession(await api.switchWorkspace(workspaceId));
      navigate('/');
    });

  return (
    <div className="shell">
      <header className="topbar">
        <button
          type="button"
          className="button button-small menu-button"
          aria-controls="main-nav"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen((open) => !open)}
          data-testid="nav-toggle"
        >
          Menu
        </button>
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
          <Link
            to="/settings/account"
            className="user-name"
            data-testid="current-user"
            title={`${session.user.email}: account settings`}
          >
            {session.user.name || session.user.email}
          </Link>
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
        {/* A click on a link (bubbling up) folds the narrow-screen menu away again. */}
        <nav
          id="main-nav"
          className={menuOpen ? 'sidebar sidebar-open' : 'sidebar'}
          aria-label="Main"
          data-testid="nav"
          onClick={() => setMenuOpen(false)}
        >
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
          <div className="nav-section">Settings</div>
          <Link to="/settings/account" data-testid="nav-account">
            Account
          </Link>
          {permissions.apiRead ? (
            <Link to="/settings/api-keys" data-testid="nav-api-keys">
              API keys
            </Link>
          ) : null}
          <Link to="/settings/connected-apps" data-testid="nav-connected-apps">
            Connected apps
          </Link>
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
