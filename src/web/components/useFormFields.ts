// A form's text fields kept in one state object.
import { useState } from 'react';

/**
 * The form's values, `field(name)`: the `value` and `onChange` of that field's input, and `reset`.
 * `onEdit` runs on every change, e.g. to drop a refusal the person is now fixing.
 */
export function useFormFields<F extends Record<string, string>>(initial: F, onEdit?: () => void) {
  const [form, setForm] = useState(initial);
  const field = (key: keyof F) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => {
      onEdit?.();
      setForm((now) => ({ ...now, [key]: event.target.value }));
    },
  });
  return { form, field, reset: () => setForm(initial) };
}
