// Settings → Account: another workspace of one's own (POST /app/api/workspaces). The session
// moves to it, and it starts as a signed-up person's first one: with the onboarding wizard.
import type { FormEvent } from 'react';
import { api } from '../api';
import { useRouter } from '../router';
import { useSessionContext } from '../session';
import { useSubmit } from '../hooks/useSubmit';
import { ErrorMessage, SubmitButton } from './Dialog';
import { useFormFields } from './useFormFields';

export function CreateWorkspaceForm() {
  const { setSession } = useSessionContext();
  const { navigate } = useRouter();
  const { busy, error, setError, run } = useSubmit();
  const { form, field } = useFormFields({ name: '' }, () => setError(undefined));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const session = await api.createWorkspace({ name: form.name });
      setSession(session);
      navigate(session.onboardingPending ? '/onboarding' : '/', { replace: true });
    });
  };

  return (
    <form className="form narrow-form" onSubmit={submit} data-testid="create-workspace-form">
      <label>
        Workspace name
        <input required maxLength={255} data-testid="create-workspace-name" {...field('name')} />
        <span className="hint">You become its Admin; nothing of this workspace is copied there.</span>
      </label>
      <ErrorMessage message={error} />
      <div className="actions actions-start">
        <SubmitButton
          label="Create workspace"
          busyLabel="Creating…"
          busy={busy}
          testId="create-workspace-submit"
        />
      </div>
    </form>
  );
}
