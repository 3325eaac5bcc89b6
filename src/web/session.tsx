// The signed-in session (GET /app/api/session), shared by every page.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, api, setUnauthorizedHandler, type Session } from './api';

type SessionState =
  | { status: 'loading' }
  | { status: 'signedOut' }
  | { status: 'error'; message: string }
  | { status: 'signedIn'; session: Session };

type SessionValue = {
  state: SessionState;
  /** Sets the session from an answer that returned one (sign-in, sign-up, switcher). */
  setSession: (session: Session) => void;
  /** Reads the session again (after a change that may affect the caller's own role or status). */
  refresh: () => Promise<void>;
  /** Signs out; `then` runs in the same update as the switch to signed-out (e.g. to navigate). */
  signOut: (then?: () => void) => Promise<void>;
};

const SessionContext = createContext<SessionValue | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  const refresh = useCallback(async () => {
    try {
      setState({ status: 'signedIn', session: await api.session() });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setState({ status: 'signedOut' });
      else setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(() => setState({ status: 'signedOut' }));
    void refresh();
    return () => setUnauthorizedHandler(undefined);
  }, [refresh]);

  const setSession = useCallback((session: Session) => setState({ status: 'signedIn', session }), []);

  const signOut = useCallback(async (then?: () => void) => {
    try {
      await api.signOut();
    } finally {
      then?.();
      setState({ status: 'signedOut' });
    }
  }, []);

  const value = useMemo(
    () => ({ state, setSession, refresh, signOut }),
    [state, setSession, refresh, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSessionContext(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSessionContext outside <SessionProvider>');
  return value;
}

/** The session of a signed-in page (the app renders those pages only when signed in). */
export function useSession(): Session {
  const { state } = useSessionContext();
  if (state.status !== 'signedIn') throw new Error('useSession on a page that needs no session');
  return state.session;
}
