// The labelled required inputs of the app's small forms (sign-up, sign-in, e-mailed links,
// change password), and the one a new password is chosen in, with the rule's bounds and hint.
import type { InputHTMLAttributes } from 'react';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULE_HINT,
} from '../../shared/credentials/password.rules';

type FieldProps = { label: string; hint?: string; testId: string } & InputHTMLAttributes<HTMLInputElement>;
/** The fields below: a label of their own unless the form words it otherwise. */
type PresetProps = Omit<FieldProps, 'label'> & { label?: string };

/** A required input under its label, with an optional hint below it. */
export function RequiredField({ label, hint, testId, ...input }: FieldProps) {
  return (
    <label>
      {label}
      <input required data-testid={testId} {...input} />
      {hint ? <span className="hint">{hint}</span> : null}
    </label>
  );
}

/** A password being chosen (src/shared/credentials/password.rules.ts): its bounds and its hint. */
export function NewPasswordField({ label = 'Password', ...input }: PresetProps) {
  return (
    <RequiredField
      label={label}
      hint={PASSWORD_RULE_HINT}
      type="password"
      minLength={PASSWORD_MIN_LENGTH}
      maxLength={PASSWORD_MAX_LENGTH}
      autoComplete="new-password"
      {...input}
    />
  );
}

/** An e-mail address (sign-up, sign-in, a reset link); `autoComplete` says which account field. */
export function EmailField({ label = 'Email', ...input }: PresetProps) {
  return <RequiredField label={label} type="email" autoComplete="email" {...input} />;
}

/** A person's own name, as the user row keeps it (at most 255 characters). */
export function PersonNameField({ label = 'Your name', ...input }: PresetProps) {
  return <RequiredField label={label} maxLength={255} autoComplete="name" {...input} />;
}

/** The password a person has now (sign-in, or to prove it before choosing another). */
export function CurrentPasswordField({ label = 'Password', ...input }: PresetProps) {
  return <RequiredField label={label} type="password" autoComplete="current-password" {...input} />;
}
