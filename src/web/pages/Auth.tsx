// Sign up (a new user and a new workspace where the user is Admin) and sign in.
import type { FormEvent, ReactNode } from 'react';
import { api } from '../api';
import {
  CurrentPasswordField,
  EmailField,
  NewPasswordField,
  PersonNameField,
  RequiredField,
} from '../components/RequiredField';
import { SmallForm } from '../components/SmallForm';
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
      <SmallForm
        testId="sign-up-form"
        onSubmit={submit}
        error={error}
        submit={{ label: 'Sign up', busyLabel: 'Creating…', busy, testId: 'sign-up-submit' }}
      >
        <PersonNameField testId="sign-up-name" {...field('name')} />
        <EmailField testId="sign-up-email" {...field('email')} />
        <NewPasswordField testId="sign-up-password" {...field('password')} />
        <RequiredField
          label="Workspace name"
          maxLength={255}
          testId="sign-up-workspace"
          {...field('workspaceName')}
        />
      </SmallForm>
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
      <SmallForm
        testId="sign-in-form"
        onSubmit={submit}
        error={error}
        submit={{ label: 'Sign in', busyLabel: 'Signing in…', busy, testId: 'sign-in-submit' }}
      >
        <EmailField autoComplete="username" testId="sign-in-email" {...field('email')} />
        <CurrentPasswordField testId="sign-in-password" {...field('password')} />
      </SmallForm>
    </AuthCard>
  );
}
