// Proof of the address (issue 34): the state of a signed-up account until the e-mailed link is
// opened, and the page that link opens.
import { useEffect, useRef, useState } from 'react';
import { api, errorMessage } from '../api';
import { ErrorMessage } from '../components/Dialog';
import { useSubmit } from '../hooks/useSubmit';
import { Link, useRouter } from '../router';
import { useSession, useSessionContext } from '../session';
import { AuthCard } from './Auth';

/** What an unverified account sees on every page: where the link went, re-send, sign out. */
export function CheckInboxPage() {
  const session = useSession();
  const { signOut } = useSessionContext();
  const { navigate } = useRouter();
  const { busy, error, run } = useSubmit();
  const [sent, setSent] = useState(false);

  return (
    <AuthCard
      title="Check your inbox"
      footer={
        <button
          type="button"
          className="link-button"
          onClick={() => void signOut(() => navigate('/sign-in'))}
        >
          Sign out
        </button>
      }
    >
      <p data-testid="check-inbox">
        We sent a link to <strong>{session.user.email}</strong>. Open it to confirm that the address is yours;
        until then the account can do nothing.
      </p>
      {sent ? (
        <p className="success" role="status" data-testid="verify-resent">
          A new link is on its way. Earlier links no longer work.
        </p>
      ) : null}
      <ErrorMessage message={error} />
      <button
        type="button"
        className="button"
        disabled={busy}
        data-testid="verify-resend"
        onClick={() => void run(async () => (await api.resendVerification(), setSent(true)))}
      >
        Send the link again
      </button>
    </AuthCard>
  );
}

/** `/app/verify-email?token=…`: spends the link's token once, signed in or not. */
export function VerifyEmailPage() {
  const { state, refresh } = useSessionContext();
  const { navigate, search } = useRouter();
  const [result, setResult] = useState<{ ok: true } | { ok: false; message: string }>();
  const started = useRef(false);

  useEffect(() => {
    // Once: a token works once, and React may run effects twice in development.
    if (started.current) return;
    started.current = true;
    const token = new URLSearchParams(search).get('token') ?? '';
    api
      .verifyEmail(token)
      .then(async () => {
        setResult({ ok: true });
        await refresh();
      })
      .catch((error: unknown) => setResult({ ok: false, message: errorMessage(error) }));
  }, [search, refresh]);

  const signedIn = state.status === 'signedIn';
  const next = signedIn && state.session.onboardingPending ? '/onboarding' : '/';
  return (
    <AuthCard title="Confirm your e-mail address" footer={<Link to="/sign-in">Sign in</Link>}>
      {!result ? <p data-testid="verify-email-pending">Confirming…</p> : null}
      {result?.ok ? (
        <>
          <p className="success" role="status" data-testid="verify-email-done">
            Your address is confirmed.
          </p>
          <button
            type="button"
            className="button"
            data-testid="verify-email-continue"
            onClick={() => navigate(signedIn ? next : '/sign-in', { replace: true })}
          >
            {signedIn ? 'Continue' : 'Sign in'}
          </button>
        </>
      ) : null}
      {result && !result.ok ? (
        <div data-testid="verify-email-failed">
          <ErrorMessage message={result.message} />
          <p>Sign in and ask for a new link.</p>
        </div>
      ) : null}
    </AuthCard>
  );
}
