// Settings → Account: a new password, proven by the current one (POST /app/api/auth/password).
// The server signs out the person's other sessions; this one stays signed in.
import { useState, type FormEvent } from 'react';
import { passwordProblem } from '../../shared/credentials/password.rules';
import { api } from '../api';
import { useSubmit } from '../hooks/useSubmit';
import { ErrorMessage, SubmitButton } from './Dialog';
import { CurrentPasswordField, NewPasswordField, RequiredField } from './RequiredField';
import { useFormFields } from './useFormFields';

export function ChangePasswordForm() {
  const { busy, error, setError, run } = useSubmit();
  const [changed, setChanged] = useState(false);
  const { form, field, reset } = useFormFields(
    { currentPassword: '', newPassword: '', confirmation: '' },
    () => {
      setError(undefined);
      setChanged(false);
    },
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordProblem(form.newPassword);
    if (problem) return setError(problem.message);
    if (form.confirmation !== form.newPassword) return setError('The two new passwords differ.');
    void run(async () => {
      await api.changePassword({ currentPassword: form.currentPassword, newPassword: form.newPassword });
      reset();
      setChanged(true);
    });
  };

  return (
    <form className="form narrow-form" onSubmit={submit} data-testid="change-password-form">
      <CurrentPasswordField
        label="Current password"
        testId="current-password"
        {...field('currentPassword')}
      />
      <NewPasswordField label="New password" testId="new-password" {...field('newPassword')} />
      <RequiredField
        label="New password again"
        type="password"
        autoComplete="new-password"
        testId="new-password-confirmation"
        {...field('confirmation')}
      />
      <ErrorMessage message={error} />
      {changed ? (
        <p className="notice" role="status" data-testid="password-changed">
          Password changed. Your other sessions were signed out; API keys keep working.
        </p>
      ) : null}
      <div className="actions actions-start">
        <SubmitButton
          label="Change password"
          busyLabel="Changing…"
          busy={busy}
          testId="change-password-submit"
        />
      </div>
    </form>
  );
}
