// The one submit pattern of the app: while an action runs the form is busy; a refusal shows the
// server's message (error.issues[0].message) and the form becomes usable again.
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api';

export type Submit = {
  /** True while an action started by `run` is under way. */
  busy: boolean;
  /** The message of the last refusal (cleared when the next action starts). */
  error: string | undefined;
  setError: (message: string | undefined) => void;
  /** Runs `action`; true when it succeeded, false when it was refused (the message is then in `error`). */
  run: (action: () => Promise<unknown>) => Promise<boolean>;
};

export function useSubmit(): Submit {
  const [pending, setPending] = useState(0);
  const [error, setError] = useState<string>();
  // A successful action often closes the form or leaves the page: no state updates after that.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(async (action: () => Promise<unknown>) => {
    setPending((count) => count + 1);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      if (mounted.current) setError(errorMessage(failure));
      return false;
    } finally {
      if (mounted.current) setPending((count) => count - 1);
    }
  }, []);

  return { busy: pending > 0, error, setError, run };
}
