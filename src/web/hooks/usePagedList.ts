// The one cursor-paged list of the app's list pages: the first page of a query, "Load more" with the
// cursor, and an answer to an older query never replaces a newer one (each listing keeps its key).
import { useEffect, useState } from 'react';
import { errorMessage } from '../api';
import { useSubmit } from './useSubmit';

export type Page<T> = { data: T[]; nextCursor: string | null };

export type Listing<Q, T> = {
  /** The query listed, as JSON: the listing of an older query is told apart by it. */
  key: string;
  query: Q;
  items: T[];
  nextCursor: string | null;
};

export type PagedList<Q, T> = {
  /** The last listing loaded, of this query or an older one. */
  listing: Listing<Q, T> | undefined;
  /** The listing when it is of the query asked now. */
  current: Listing<Q, T> | undefined;
  /** Why the first page could not be read. */
  error: string | undefined;
  /** "Load more": busy while the next page is read, and its refusal. */
  moreBusy: boolean;
  moreError: string | undefined;
  loadMore: () => void;
  /** Reads the first page again. */
  reload: () => void;
  /** Changes the loaded items (after a create, an edit or a delete). */
  update: (change: (items: T[]) => T[]) => void;
};

/**
 * The pages of `query` (none while it is undefined) read by `fetchPage`, which should not change
 * between renders (a module-level function): the query is what the list depends on.
 */
export function usePagedList<Q, T>(
  query: Q | undefined,
  fetchPage: (query: Q, cursor: string | undefined) => Promise<Page<T>>,
): PagedList<Q, T> {
  const [listing, setListing] = useState<Listing<Q, T>>();
  const [error, setError] = useState<string>();
  const [reloads, setReloads] = useState(0);
  const more = useSubmit();

  const key = query === undefined ? undefined : JSON.stringify(query);
  const current = listing?.key === key ? listing : undefined;

  useEffect(() => {
    if (key === undefined) return;
    let live = true;
    setError(undefined);
    const asked = JSON.parse(key) as Q;
    fetchPage(asked, undefined)
      .then(
        (page) => live && setListing({ key, query: asked, items: page.data, nextCursor: page.nextCursor }),
      )
      .catch((failure: unknown) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [key, reloads, fetchPage]);

  const loadMore = () => {
    const cursor = current?.nextCursor;
    if (!current || !cursor) return;
    void more.run(async () => {
      const page = await fetchPage(current.query, cursor);
      setListing((shown) =>
        shown?.key === current.key
          ? { ...shown, items: [...shown.items, ...page.data], nextCursor: page.nextCursor }
          : shown,
      );
    });
  };

  return {
    listing,
    current,
    error,
    moreBusy: more.busy,
    moreError: more.error,
    loadMore,
    reload: () => setReloads((count) => count + 1),
    update: (change) => setListing((shown) => (shown ? { ...shown, items: change(shown.items) } : shown)),
  };
}
