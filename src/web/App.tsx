// Which page to show for the current path and session, with the permission guards of
// docs/api.md#permissions ("Read access None ... opening the page directly leads to the Dashboard").
import type { ReactNode } from 'react';
import type { Permissions, Session } from './api';
import { Layout } from './components/Layout';
import { SignInPage, SignUpPage } from './pages/Auth';
import { AccountPage } from './pages/Account';
import { ApiKeysPage } from './pages/ApiKeys';
import { ApiReferencePage } from './pages/ApiReference';
import { ConnectedAccountsPage } from './pages/ConnectedAccounts';
import { ConnectedAppsPage } from './pages/ConnectedApps';
import { ConsentPage } from './pages/Consent';
import { DashboardPage } from './pages/Dashboard';
import { DeliveriesPage } from './pages/Deliveries';
import { CheckInboxPage, VerifyEmailPage } from './pages/EmailProof';
import { AcceptInvitationPage, ForgotPasswordPage, ResetPasswordPage } from './pages/EmailLinks';
import { MembersPage } from './pages/Members';
import { OnboardingPage } from './pages/Onboarding';
import { RecordsPage } from './pages/Records';
import { RolesPage } from './pages/Roles';
import { WebhooksPage } from './pages/Webhooks';
import { Link, Redirect, safeNextPath, useRouter } from './router';
import { useSessionContext } from './session';

type Page = { render: () => ReactNode; allowed?: (session: Session) => boolean };

const can = (permission: keyof Permissions) => (session: Session) => session.permissions[permission];

const PAGES: Record<string, Page> = {
  '/': { render: () => <DashboardPage /> },
  '/onboarding': {
    render: () => <OnboardingPage />,
    allowed: (session) => session.onboardingPending && session.permissions.manageWorkspace,
  },
  '/records': { render: () => <RecordsPage /> },
  '/webhooks': { render: () => <WebhooksPage />, allowed: can('apiRead') },
  '/deliveries': { render: () => <DeliveriesPage />, allowed: can('apiRead') },
  '/api-reference': { render: () => <ApiReferencePage /> },
  '/settings/account': { render: () => <AccountPage /> },
  '/settings/api-keys': { render: () => <ApiKeysPage />, allowed: can('apiRead') },
  '/settings/connected-apps': { render: () => <ConnectedAppsPage /> },
  '/settings/members': { render: () => <MembersPage />, allowed: can('manageWorkspace') },
  // The pending invitations are on the Members page; the old address leads there.
  '/settings/invitations': {
    render: () => <Redirect to="/settings/members" />,
    allowed: can('manageWorkspace'),
  },
  '/settings/roles': { render: () => <RolesPage />, allowed: can('manageWorkspace') },
  '/settings/connected-accounts': {
    render: () => <ConnectedAccountsPage />,
    allowed: can('manageWorkspace'),
  },
};

const PUBLIC_PAGES: Record<string, () => ReactNode> = {
  '/sign-in': () => <SignInPage />,
  '/sign-up': () => <SignUpPage />,
  '/forgot-password': () => <ForgotPasswordPage />,
};

/** `/settings/api-keys/` and `/settings/api-keys` are the same page. */
function normalise(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

export function App() {
  const { state, refresh } = useSessionContext();
  const { path: rawPath, search } = useRouter();
  const path = normalise(rawPath);

  if (state.status === 'loading') {
    return (
      <div className="splash" data-testid="loading">
        Loading…
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="splash">
        <p className="error" role="alert">
          {state.message}
        </p>
        <button type="button" className="button" onClick={() => void refresh()}>
          Try again
        </button>
      </div>
    );
  }

  // The e-mailed link's page works signed in or not (the link may open in another browser).
  if (path === '/app/verify-email') return <VerifyEmailPage />;
  if (path === '/app/reset-password') return <ResetPasswordPage />;
  if (path === '/app/accept-invitation' && !(state.status === 'signedIn' && !state.session.emailVerified)) {
    return <AcceptInvitationPage />;
  }

  const publicPage = PUBLIC_PAGES[path];
  if (state.status === 'signedOut') {
    if (publicPage) return publicPage();
    const next = path === '/' ? '' : `?next=${encodeURIComponent(rawPath + search)}`;
    return <Redirect to={`/sign-in${next}`} />;
  }
  if (publicPage) return <Redirect to={safeNextPath(search) ?? '/'} />;

  // An account whose address is not proven can do nothing else (issue 34, account pre-claim).
  if (!state.session.emailVerified) return <CheckInboxPage />;

  // The OAuth consent step (the authorization server sends the browser here): a page of its own.
  const consent = /^\/consent\/([^/]+)$/.exec(path);
  if (consent) return <ConsentPage uid={decodeURIComponent(consent[1]!)} />;

  const page = PAGES[path];
  if (!page) {
    return (
      <Layout>
        <section data-testid="not-found">
          <h1>Page not found</h1>
          <p>
            There is no page at <code>{rawPath}</code>. <Link to="/">Go to the Dashboard</Link>.
          </p>
        </section>
      </Layout>
    );
  }
  if (page.allowed && !page.allowed(state.session)) return <Redirect to="/" />;
  return <Layout>{page.render()}</Layout>;
}
