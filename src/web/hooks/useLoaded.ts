// A page's data read once and again on demand: the value, the refusal to show, and `reload`.
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../api';

export function useLoaded<T>(read: () => Promise<T>): {
  value: T | undefined;
  error: string | undefined;
  reload: () => Promise<void>;
} {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string>();

  const reload = useCallback(async () => {
    try {
      setValue(await read());
      setError(undefined);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }, [read]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { value, error, reload };
}
