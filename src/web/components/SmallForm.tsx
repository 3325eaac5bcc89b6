// The frame of the app's small forms (sign-up, sign-in, the e-mailed links): the fields, the
// server's refusal under them, and one submit button.
import type { FormEvent, ReactNode } from 'react';
import { ErrorMessage, SubmitButton } from './Dialog';

export function SmallForm({
  testId,
  onSubmit,
  error,
  submit,
  children,
}: {
  testId: string;
  onSubmit: (event: FormEvent) => void;
  error: string | undefined;
  /** The button's words, idle and busy, and whether the form is being sent. */
  submit: { label: string; busyLabel: string; busy: boolean; testId: string };
  children: ReactNode;
}) {
  return (
    <form className="form" onSubmit={onSubmit} data-testid={testId}>
      {children}
      <ErrorMessage message={error} />
      <SubmitButton {...submit} />
    </form>
  );
}
