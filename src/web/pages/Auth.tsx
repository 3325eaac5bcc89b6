// Sign up (a new user and a new workspace where the user is Admin) and sign in.
import { useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api';
import { ErrorMessage, SubmitButton } from '../components/Dialog';
import { Link, safeNextPath, useRouter } from '../router';
import { useSessionContext } from '../session';
import { useSubmit } from '../useSubmit';

function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="brand brand-large">CRM</div>
        <h1>{title}</h1>
        {children}
        <p className="auth-footer">{footer}</p>
      </div>
    </main>
  );
}

export function SignUpPage() {
  const { setSession } = useSessionContext();
  const { navigate } = useRouter();
  const [form, setForm] = useState({ name: '', email: '', password: '', workspaceName: '' });
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const session = await api.signUp(form);
      setSession(session);
      navigate(session.onboardingPending ? '/onboarding' : '/', { replace: true });
    });
  };

  const field = (key: keyof typeof form) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });

  return (
    <AuthCard
      title="Create your workspace"
      footer={
        <>
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </>
      }
    >
      <form className="form" onSubmit={submit} data-testid="sign-up-form">
        <label>
          Your name
          <input required maxLength={255} autoComplete="name" data-testid="sign-up-name" {...field('name')} />
        </label>
        <label>
          Email
          <input required type="email" autoComplete="email" data-testid="sign-up-email" {...field('email')} />
        </label>
        <label>
          Password
          <input
            required
            type="password"
            minLength={8}
            autoComplete="new-password"
            data-testid="sign-up-password"
            {...field('password')}
          />
          <span className="hint">At least 8 characters.</span>
        </label>
        <label>
          Workspace name
          <input required maxLength={255} data-testid="sign-up-workspace" {...field('workspaceName')} />
        </label>
        <ErrorMessage message={error} />
        <SubmitButton label="Sign up" busyLabel="Creating…" busy={busy} testId="sign-up-submit" />
      </form>
    </AuthCard>
  );
}

export function SignInPage() {
  const { setSession } = useSessionContext();
  const { navigate, search } = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      setSession(await api.signIn({ email, password }));
      navigate(safeNextPath(search) ?? '/', { replace: true });
    });
  };

  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          New here? <Link to="/sign-up">Create a workspace</Link>
        </>
      }
    >
      <form className="form" onSubmit={submit} data-testid="sign-in-form">
        <label>
          Email
          <input
            required
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            data-testid="sign-in-email"
          />
        </label>
        <label>
          Password
          <input
            required
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            data-testid="sign-in-password"
          />
        </label>
        <ErrorMessage message={error} />
        <SubmitButton label="Sign in" busyLabel="Signing in…" busy={busy} testId="sign-in-submit" />
      </form>
    </AuthCard>
  );
}
