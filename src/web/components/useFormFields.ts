// A form's text fields kept in one state object.
import { useState } from 'react';

/** The form's values, and `field(name)`: the `value` and `onChange` of that field's input. */
export function useFormFields<F extends Record<string, string>>(initial: F) {
  const [form, setForm] = useState(initial);
  const field = (key: keyof F) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) =>
      setForm((now) => ({ ...now, [key]: event.target.value })),
  });
  return { form, field };
}
