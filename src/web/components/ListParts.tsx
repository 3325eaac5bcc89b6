// The parts the list pages share: the table's frame (dimmed while a newer query is read) and the
// "Load more" button of a cursor-paged list.
import type { ReactNode } from 'react';

/** The scrolling frame of a list's table; `stale` while the rows shown are of an older query. */
export function TableWrap({ stale, children }: { stale: boolean; children: ReactNode }) {
  return (
    <div className={stale ? 'table-wrap is-stale' : 'table-wrap'} aria-busy={stale}>
      {children}
    </div>
  );
}

/** "Load more" (reading the next page: "Loading…"). */
export function LoadMoreButton({
  busy,
  onClick,
  testId,
}: {
  busy: boolean;
  onClick: () => void;
  testId: string;
}) {
  return (
    <button type="button" className="button" disabled={busy} onClick={onClick} data-testid={testId}>
      {busy ? 'Loading…' : 'Load more'}
    </button>
  );
}

/** The "Load more" row under a list, shown while there is a next page. */
export function LoadMore({
  nextCursor,
  busy,
  onClick,
  testId,
}: {
  nextCursor: string | null | undefined;
  busy: boolean;
  onClick: () => void;
  testId: string;
}) {
  if (!nextCursor) return null;
  return (
    <div className="load-more">
      <LoadMoreButton busy={busy} onClick={onClick} testId={testId} />
    </div>
  );
}
