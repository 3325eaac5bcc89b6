// The pages of the other e-mailed links (issue 34): forgot password, reset password, accept an
// invitation.
import { useEffect, useState, type FormEvent } from 'react';
import { api, errorMessage, type InvitationPreview } from '../api';
import { ErrorMessage } from '../components/Dialog';
import { EmailField, NewPasswordField, PersonNameField } from '../components/RequiredField';
import { SmallForm } from '../components/SmallForm';
import { useFormFields } from '../components/useFormFields';
import { useSubmit } from '../hooks/useSubmit';
import { Link, useRouter } from '../router';
import { useSessionContext } from '../session';
import { AuthCard } from './Auth';

const tokenOf = (search: string) => new URLSearchParams(search).get('token') ?? '';

/** `/forgot-password`: asks for a link; the answer is the same whether or not the account exists. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useSubmit();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => (await api.requestPasswordReset(email.trim()), setSent(true)));
  };
  return (
    <AuthCard title="Reset your password" footer={<Link to="/sign-in">Back to sign in</Link>}>
      {sent ? (
        <p role="status" data-testid="forgot-password-sent">
          If an account has this address, a link to choose a new password is on its way. It works for one
          hour.
        </p>
      ) : (
        <SmallForm
          testId="forgot-password-form"
          onSubmit={submit}
          error={error}
          submit={{ label: 'Send the link', busyLabel: 'Sending…', busy, testId: 'forgot-password-submit' }}
        >
          <EmailField
            testId="forgot-password-email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </SmallForm>
      )}
    </AuthCard>
  );
}

/** `/app/reset-password?token=…`: a new password; every session of the account ends. */
export function ResetPasswordPage() {
  const { search, navigate } = useRouter();
  const { signOut } = useSessionContext();
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, run } = useSubmit();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.completePasswordReset({ token: tokenOf(search), newPassword: password });
      setDone(true);
    });
  };
  return (
    <AuthCard title="Choose a new password" footer={<Link to="/sign-in">Sign in</Link>}>
      {done ? (
        <>
          <p role="status" data-testid="reset-password-done">
            Your password is changed and every session of the account ended. Sign in with the new one.
          </p>
          <button
            type="button"
            className="button"
            data-testid="reset-password-sign-in"
            onClick={() => void signOut(() => navigate('/sign-in', { replace: true }))}
          >
            Sign in
          </button>
        </>
      ) : (
        <SmallForm
          testId="reset-password-form"
          onSubmit={submit}
          error={error}
          submit={{ label: 'Set the password', busyLabel: 'Saving…', busy, testId: 'reset-password-submit' }}
        >
          <NewPasswordField
            label="New password"
            testId="reset-password-new"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </SmallForm>
      )}
    </AuthCard>
  );
}

/**
 * `/app/accept-invitation?token=…`: signed in with the invited address, one click; signed out, sign
 * in first or create the account by the link (name and password of one's own).
 */
export function AcceptInvitationPage() {
  const { state, setSession } = useSessionContext();
  const { search, navigate } = useRouter();
  const token = tokenOf(search);
  const [preview, setPreview] = useState<InvitationPreview>();
  const [failed, setFailed] = useState<string>();
  const { form, field } = useFormFields({ name: '', password: '' });
  const { busy, error, run } = useSubmit();

  useEffect(() => {
    api.previewInvitation(token).then(setPreview, (failure: unknown) => setFailed(errorMessage(failure)));
  }, [token]);

  const accept = () =>
    void run(async () => {
      setSession(await api.acceptInvitation(token));
      navigate('/', { replace: true });
    });
  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      setSession(await api.acceptInvitationAsNew({ token, name: form.name.trim(), password: form.password }));
      navigate('/', { replace: true });
    });
  };
  const next = encodeURIComponent(`/app/accept-invitation${search}`);

  return (
    <AuthCard title="Join a workspace" footer={<Link to="/">Go to the app</Link>}>
      {failed ? <ErrorMessage message={failed} /> : null}
      {!preview && !failed ? <p>Loading…</p> : null}
      {preview ? (
        <>
          <p data-testid="invitation-summary">
            You are invited to <strong>{preview.workspaceName}</strong> as {preview.roleName}, as{' '}
            <strong>{preview.email}</strong>.
          </p>
          {state.status === 'signedIn' ? (
            state.session.user.email === preview.email ? (
              <>
                <ErrorMessage message={error} />
                <button
                  type="button"
                  className="button button-primary"
                  disabled={busy}
                  onClick={accept}
                  data-testid="invitation-accept"
                >
                  Join {preview.workspaceName}
                </button>
              </>
            ) : (
              <p data-testid="invitation-other-account">
                You are signed in as {state.session.user.email}. Sign out and sign in as {preview.email} to
                accept.
              </p>
            )
          ) : (
            <>
              <p>
                Have an account with this address? <Link to={`/sign-in?next=${next}`}>Sign in to accept</Link>
                . Otherwise choose your name and password:
              </p>
              <SmallForm
                testId="invitation-new-account"
                onSubmit={create}
                error={error}
                submit={{
                  label: 'Create the account and join',
                  busyLabel: 'Joining…',
                  busy,
                  testId: 'invitation-create',
                }}
              >
                <PersonNameField testId="invitation-name" {...field('name')} />
                <NewPasswordField testId="invitation-password" {...field('password')} />
              </SmallForm>
            </>
          )}
        </>
      ) : null}
    </AuthCard>
  );
}
