// Settings → Account: a new password, proven by the current one (POST /app/api/auth/password).
// The server signs out the person's other sessions; this one stays signed in.
import { useState, type FormEvent } from 'react';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULE_HINT,
  passwordProblem,
} from '../../shared/credentials/password.rules';
import { api } from '../api';
import { useSubmit } from '../hooks/useSubmit';
import { ErrorMessage, SubmitButton } from './Dialog';
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
      <label>
        Current password
        <input
          type="password"
          required
          autoComplete="current-password"
          data-testid="current-password"
          {...field('currentPassword')}
        />
      </label>
      <label>
        New password
        <input
          type="password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          autoComplete="new-password"
          data-testid="new-password"
          {...field('newPassword')}
        />
        <span className="hint">{PASSWORD_RULE_HINT}</span>
      </label>
      <label>
        New password again
        <input
          type="password"
          required
          autoComplete="new-password"
          data-testid="new-password-confirmation"
          {...field('confirmation')}
        />
      </label>
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
