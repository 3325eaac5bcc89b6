// The signed-in frame: header (workspace switcher, user, sign out) and the navigation. On a narrow
// screen the navigation folds away behind the Menu button (styles.css, "Narrow screens").
import { useState, type ReactNode } from 'react';
import { api } from '../api';
import { Link, useRouter } from '../router';
import { useSession, useSessionContext } from '../session';
import { useSubmit } from '../hooks/useSubmit';
import { NoticesBell } from './alerts/NoticesBell';

type Permissions = ReturnType<typeof useSession>['permissions'];

/** A link of the navigation; `needs` names the permission without which it is not shown. */
type NavLink = { to: string; label: string; testId: string; needs?: 'apiRead' | 'manageWorkspace' };

const MAIN_LINKS: NavLink[] = [
  { to: '/', label: 'Dashboard', testId: 'nav-dashboard' },
  { to: '/records', label: 'Records', testId: 'nav-records' },
  { to: '/webhooks', label: 'Webhooks', testId: 'nav-webhooks', needs: 'apiRead' },
  { to: '/deliveries', label: 'Deliveries', testId: 'nav-deliveries', needs: 'apiRead' },
  { to: '/api-reference', label: 'API reference', testId: 'nav-api-reference' },
];

const SETTINGS_LINKS: NavLink[] = [
  { to: '/settings/account', label: 'Account', testId: 'nav-account' },
  { to: '/settings/api-keys', label: 'API keys', testId: 'nav-api-keys', needs: 'apiRead' },
  { to: '/settings/connected-apps', label: 'Connected apps', testId: 'nav-connected-apps' },
  { to: '/settings/members', label: 'Members', testId: 'nav-members', needs: 'manageWorkspace' },
  { to: '/settings/roles', label: 'Roles', testId: 'nav-roles', needs: 'manageWorkspace' },
  {
    to: '/settings/connected-accounts',
    label: 'Connected accounts',
    testId: 'nav-connected-accounts',
    needs: 'manageWorkspace',
  },
];

function NavLinks({ links, permissions }: { links: NavLink[]; permissions: Permissions }) {
  return links
    .filter((link) => !link.needs || permissions[link.needs])
    .map((link) => (
      <Link key={link.to} to={link.to} data-testid={link.testId}>
        {link.label}
      </Link>
    ));
}

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
          {permissions.apiRead && session.member.status === 'active' ? <NoticesBell /> : null}
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
          <NavLinks links={MAIN_LINKS} permissions={permissions} />
          <div className="nav-section">Settings</div>
          <NavLinks links={SETTINGS_LINKS} permissions={permissions} />
        </nav>
        <main className="content">{children}</main>
      </div>
    </div>
  );
}
