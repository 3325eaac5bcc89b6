// The records of one type as the Records page lists them (a page of the listing, "Load more"
// under it), and the toolbar above: the type, the search and Records or Trash.
import type { Field, RecordStatus, RecordType, RecordTypeSummary, RecordView } from '../../api';
import { DateTime } from '../../format';
import type { PagedList, Listing } from '../../hooks/usePagedList';
import { recordTitle } from '../../records';
import { ListTable, LoadMore, OpenRow, RowOpenButton, SearchField } from '../ListParts';
import { RecordValue } from './RecordValue';
import { SegmentedChoice, type SegmentedOption } from '../SegmentedChoice';

const TABLE_COLUMNS = 4;

const VIEWS: SegmentedOption<RecordStatus>[] = [
  { value: 'active', label: 'Records', testId: 'records-view-active' },
  { value: 'trashed', label: 'Trash', testId: 'records-view-trash' },
];

/** The fields shown as table columns: the first few, without rich text. */
function columnsOf(type: RecordType): Field[] {
  return [...type.fields]
    .sort((a, b) => a.position - b.position)
    .filter((field) => field.kind !== 'richText')
    .slice(0, TABLE_COLUMNS);
}

type RecordQuery = { search: string };

/** A listing's records; dimmed while it is an older query's (`list.current` is another). */
export function RecordsTable<Q extends RecordQuery>({
  model,
  listing,
  list,
  view,
  onOpen,
}: {
  model: RecordType;
  listing: Listing<Q, RecordView>;
  list: PagedList<Q, RecordView>;
  view: RecordStatus;
  onOpen: (record: RecordView) => void;
}) {
  const columns = columnsOf(model);
  if (listing.items.length === 0)
    return (
      <div className="empty" data-testid="records-empty">
        {listing.query.search
          ? `No ${model.name.toLowerCase()} match “${listing.query.search}”.`
          : view === 'trashed'
            ? `No ${model.name.toLowerCase()} in the Trash.`
            : `No ${model.name.toLowerCase()} yet.`}
      </div>
    );
  return (
    <>
      <ListTable
        stale={listing !== list.current}
        className="table records-table"
        testId="records-table"
        view={view}
        columns={[...columns.map((field) => field.name), view === 'trashed' ? 'Trashed' : 'Updated']}
      >
        {listing.items.map((record) => (
          <OpenRow
            key={record.id}
            onOpen={() => onOpen(record)}
            data-testid="record-row"
            data-record-id={record.id}
            data-title={recordTitle(model, record)}
          >
            {columns.map((field, index) => (
              <td key={field.id}>
                {index === 0 ? (
                  <RowOpenButton onOpen={() => onOpen(record)} testId="record-open">
                    <RecordValue field={field} record={record} compact testId="record-cell" />
                  </RowOpenButton>
                ) : (
                  <RecordValue field={field} record={record} compact testId="record-cell" />
                )}
              </td>
            ))}
            <td>
              <DateTime
                value={view === 'trashed' ? (record.trashedAt ?? record.updatedAt) : record.updatedAt}
              />
            </td>
          </OpenRow>
        ))}
      </ListTable>
      <LoadMore list={list} testId="records-load-more" />
    </>
  );
}

/** The type listed, the search and the choice of Records or Trash. */
export function RecordsToolbar({
  types,
  typeId,
  view,
  search,
  onSearch,
  onType,
  onView,
}: {
  types: RecordTypeSummary[];
  typeId: string;
  view: RecordStatus;
  search: string;
  onSearch: (search: string) => void;
  onType: (typeId: string) => void;
  onView: (view: RecordStatus) => void;
}) {
  const typeName = types.find((type) => type.id === typeId)?.name ?? '';
  return (
    <div className="toolbar">
      <label className="toolbar-field">
        <span className="visually-hidden">Record type</span>
        <select value={typeId} onChange={(event) => onType(event.target.value)} data-testid="record-type">
          {types.map((type) => (
            <option key={type.id} value={type.id}>
              {type.name}
            </option>
          ))}
        </select>
      </label>
      <SearchField
        label="Search"
        placeholder={`Search ${typeName}`}
        value={search}
        onChange={onSearch}
        testId="records-search"
      />
      <SegmentedChoice label="Show" value={view} options={VIEWS} onChange={onView} />
    </div>
  );
}
