// Sign up (a new user and a new workspace where the user is Admin) and sign in.
import type { FormEvent, ReactNode } from 'react';
import { api } from '../api';
import { ErrorMessage, SubmitButton } from '../components/Dialog';
import { NewPasswordField, RequiredField } from '../components/RequiredField';
import { useFormFields } from '../components/useFormFields';
import { Link, safeNextPath, useRouter } from '../router';
import { useSessionContext } from '../session';
import { useSubmit } from '../hooks/useSubmit';

export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer: ReactNode;
}) {
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
  const { form, field } = useFormFields({ name: '', email: '', password: '', workspaceName: '' });
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const session = await api.signUp(form);
      setSession(session);
      navigate(session.onboardingPending ? '/onboarding' : '/', { replace: true });
    });
  };

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
        <RequiredField
          label="Your name"
          maxLength={255}
          autoComplete="name"
          testId="sign-up-name"
          {...field('name')}
        />
        <RequiredField
          label="Email"
          type="email"
          autoComplete="email"
          testId="sign-up-email"
          {...field('email')}
        />
        <NewPasswordField testId="sign-up-password" {...field('password')} />
        <RequiredField
          label="Workspace name"
          maxLength={255}
          testId="sign-up-workspace"
          {...field('workspaceName')}
        />
        <ErrorMessage message={error} />
        <SubmitButton label="Sign up" busyLabel="Creating…" busy={busy} testId="sign-up-submit" />
      </form>
    </AuthCard>
  );
}

export function SignInPage() {
  const { setSession } = useSessionContext();
  const { navigate, search } = useRouter();
  const { form, field } = useFormFields({ email: '', password: '' });
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      setSession(await api.signIn(form));
      navigate(safeNextPath(search) ?? '/', { replace: true });
    });
  };

  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          New here? <Link to="/sign-up">Create a workspace</Link> ·{' '}
          <Link to="/forgot-password" data-testid="forgot-password-link">
            Forgot your password?
          </Link>
        </>
      }
    >
      <form className="form" onSubmit={submit} data-testid="sign-in-form">
        <RequiredField
          label="Email"
          type="email"
          autoComplete="username"
          testId="sign-in-email"
          {...field('email')}
        />
        <RequiredField
          label="Password"
          type="password"
          autoComplete="current-password"
          testId="sign-in-password"
          {...field('password')}
        />
        <ErrorMessage message={error} />
        <SubmitButton label="Sign in" busyLabel="Signing in…" busy={busy} testId="sign-in-submit" />
      </form>
    </AuthCard>
  );
}
