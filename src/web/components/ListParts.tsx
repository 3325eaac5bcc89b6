// The parts the list pages share: the search box and "Clear" of the toolbar, "Loading…", the table's frame (dimmed while a newer query is
// read), the table with its header row, a list read whole as a table, a row that opens on a click and its button, and the "Load more" button of
// a cursor-paged list.
import { useRef, type HTMLAttributes, type ReactNode } from 'react';
import type { PagedList } from '../hooks/usePagedList';
import { BreakableUrl } from './BreakableUrl';
import { useCellLabels } from './useCellLabels';

/** The search box of a list's toolbar. */
export function SearchField({
  label,
  placeholder = label,
  value,
  onChange,
  testId,
}: {
  /** Read by screen readers; the placeholder unless another is given. */
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label className="toolbar-field toolbar-search">
      <span className="visually-hidden">{label}</span>
      <input
        type="search"
        placeholder={placeholder}
        value={value}
        maxLength={200}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      />
    </label>
  );
}

/** "Clear" at the end of a list's toolbar, shown while a search or filter is set. */
export function ClearFilters({
  filtered,
  onClear,
  testId,
}: {
  filtered: boolean;
  onClear: () => void;
  testId: string;
}) {
  if (!filtered) return null;
  return (
    <button type="button" className="button button-small" onClick={onClear} data-testid={testId}>
      Clear
    </button>
  );
}

/** "Loading…" while something is read; nothing once reading `failed` (an error message says why). */
export function Loading({ failed = false, testId }: { failed?: boolean; testId?: string }) {
  if (failed) return null;
  return (
    <p className="muted" data-testid={testId}>
      Loading…
    </p>
  );
}

/**
 * The scrolling frame of a list's table; `stale` while the rows shown are of an older query
 * (absent for a list read whole, which is never stale).
 */
export function TableWrap({ stale, children }: { stale?: boolean; children: ReactNode }) {
  return (
    <div className={stale ? 'table-wrap is-stale' : 'table-wrap'} aria-busy={stale}>
      {children}
    </div>
  );
}

type ListTableProps = {
  stale?: boolean;
  /** The table's classes, e.g. `table webhooks-table`. */
  className: string;
  testId: string;
  /** The column headings. */
  columns: ReactNode[];
  /** A last column for each row's actions, named for screen readers only. */
  actions?: boolean;
  /** The table's `data-view` (which view of the list the rows are of). */
  view?: string;
  /** On a narrow screen, one card per row (the default), or the table scrolling sideways. */
  cards?: boolean;
  /** The rows. */
  children: ReactNode;
};

/**
 * A list's table in its frame: one header row of `columns`, then the rows; on a narrow screen one
 * card per row, each value labelled with its column.
 */
export function ListTable({
  stale,
  className,
  testId,
  columns,
  actions,
  view,
  cards = true,
  children,
}: ListTableProps) {
  const table = useRef<HTMLTableElement>(null);
  useCellLabels(table);
  return (
    <TableWrap stale={stale}>
      <table
        ref={table}
        className={cards ? `${className} table-cards` : className}
        data-testid={testId}
        data-view={view}
      >
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index}>{column}</th>
            ))}
            {actions ? (
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableWrap>
  );
}

/**
 * A list read whole (members, connected accounts) as a table: Loading until it is read (nothing if
 * reading failed: the page says why), `empty` when it has no item, else one row per item.
 */
export function ItemsTable<Item>({
  items,
  failed,
  empty,
  table,
  children,
}: {
  items: Item[] | undefined;
  failed: boolean;
  empty?: { text: ReactNode; testId: string };
  table: Omit<ListTableProps, 'children'>;
  /** An item's row. */
  children: (item: Item) => ReactNode;
}) {
  if (items === undefined) return <Loading failed={failed} />;
  if (empty && items.length === 0)
    return (
      <div className="empty" data-testid={empty.testId}>
        {empty.text}
      </div>
    );
  return <ListTable {...table}>{items.map(children)}</ListTable>;
}

/** A row that opens (its dialog) on a click anywhere in it; `data-*` attributes go to the `tr`. */
export function OpenRow({
  onOpen,
  children,
  ...attributes
}: { onOpen: () => void; children: ReactNode } & Omit<HTMLAttributes<HTMLTableRowElement>, 'onClick'>) {
  return (
    <tr className="row-link" onClick={onOpen} {...attributes}>
      {children}
    </tr>
  );
}

/**
 * The button in a row's first cell that opens the row: the row opens on a click too, and this is
 * the keyboard's way in (it stops the click so the row does not open it twice).
 */
export function RowOpenButton({
  onOpen,
  wrap = false,
  testId,
  children,
}: {
  onOpen: () => void;
  /** Long text (a URL) may break anywhere. */
  wrap?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={wrap ? 'link-button break' : 'link-button'}
      onClick={(event) => {
        event.stopPropagation();
        onOpen();
      }}
      data-testid={testId}
    >
      {children}
    </button>
  );
}

/**
 * A row's first cell: a URL (wrapping between its parts) that opens the row, and what else names
 * the row under it.
 */
export function UrlOpenCell({
  url,
  onOpen,
  testId,
  children,
}: {
  url: string;
  onOpen: () => void;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <td className="cell-url">
      <RowOpenButton onOpen={onOpen} wrap testId={testId}>
        <BreakableUrl url={url} />
      </RowOpenButton>
      {children}
    </td>
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

/** The "Load more" row under a paged list, shown while there is a next page. */
export function LoadMore({
  list,
  testId,
}: {
  list: Pick<PagedList<unknown, unknown>, 'current' | 'moreBusy' | 'loadMore'>;
  testId: string;
}) {
  if (!list.current?.nextCursor) return null;
  return (
    <div className="load-more">
      <LoadMoreButton busy={list.moreBusy} onClick={list.loadMore} testId={testId} />
    </div>
  );
}
