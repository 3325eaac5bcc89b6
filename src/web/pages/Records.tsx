// Records (every signed-in member): pick a record type the role can read, list its records
// (search, Trash, "Load more" with the cursor), open one, create, edit, move to the Trash,
// restore and delete permanently. The routes are the REST API's under /app/api (app-api.md,
// "Records and the record model"); each write emits its record event.
import { useEffect, useState } from 'react';
import {
  api,
  errorMessage,
  type Field,
  type RecordStatus,
  type RecordType,
  type RecordTypeSummary,
  type RecordView,
} from '../api';
import { Dialog, ErrorMessage } from '../components/Dialog';
import { ListTable, LoadMore, Loading, OpenRow, RowOpenButton, SearchField } from '../components/ListParts';
import { PageHeader } from '../components/PageHeader';
import { RecordDialog } from '../components/RecordDialog';
import { RecordForm, type Person } from '../components/RecordForm';
import { RecordValue } from '../components/RecordValue';
import { DateTime } from '../format';
import { recordTitle } from '../records';
import { useRouter } from '../router';
import { useSession } from '../session';
import { useDebounced } from '../hooks/useDebounced';
import { usePagedList } from '../hooks/usePagedList';

const PAGE_SIZE = 25;
const TABLE_COLUMNS = 4;
const SEARCH_DELAY_MS = 250;

/** The query listed: an answer to an older query never replaces a newer one. */
type ListQuery = { typeId: string; view: RecordStatus; search: string };

const fetchRecords = (query: ListQuery, cursor: string | undefined) =>
  api.records(query.typeId, { status: query.view, search: query.search, limit: PAGE_SIZE, cursor });

type Open = { kind: 'create' } | { kind: 'record'; record: RecordView };

/** The fields shown as table columns: the first few, without rich text. */
function columnsOf(type: RecordType): Field[] {
  return [...type.fields]
    .sort((a, b) => a.position - b.position)
    .filter((field) => field.kind !== 'richText')
    .slice(0, TABLE_COLUMNS);
}

export function RecordsPage() {
  const session = useSession();
  const { search: query, navigate } = useRouter();
  const params = new URLSearchParams(query);
  const view: RecordStatus = params.get('view') === 'trash' ? 'trashed' : 'active';
  const canWrite = session.member.status === 'active';

  const [types, setTypes] = useState<RecordTypeSummary[]>();
  const [loadedModel, setModel] = useState<RecordType>();
  const [error, setError] = useState<string>();
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [open, setOpen] = useState<Open>();
  const [notice, setNotice] = useState<string>();
  const [people, setPeople] = useState<Person[]>([]);

  // ?type= is a type id or a built-in key (contact, deal, …); a type the role cannot read is not offered.
  const wanted = params.get('type');
  const typeId = types?.find((type) => type.id === wanted || type.builtin === wanted)?.id ?? types?.[0]?.id;
  const model = loadedModel?.id === typeId ? loadedModel : undefined;
  const list = usePagedList(typeId ? { typeId, view, search: debouncedSearch } : undefined, fetchRecords);
  const { listing, current } = list;
  // While a new search runs, the previous answer for the same type and view stays (dimmed).
  const shown =
    current ?? (listing?.query.typeId === typeId && listing?.query.view === view ? listing : undefined);

  const show = (next: { type?: string; view?: RecordStatus }) => {
    const to = new URLSearchParams();
    const nextType = next.type ?? typeId;
    if (nextType) to.set('type', nextType);
    if ((next.view ?? view) === 'trashed') to.set('view', 'trash');
    setNotice(undefined);
    navigate(`/records?${to.toString()}`, { replace: true });
  };

  // The types the role can read.
  useEffect(() => {
    let live = true;
    api
      .discoverModel()
      .then((answer) => live && setTypes(answer.types))
      .catch((failure: unknown) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, []);

  // Whom records can be assigned to: the members (an Admin may list them), else oneself.
  useEffect(() => {
    let live = true;
    const me = { id: session.user.id, name: session.user.name || session.user.email };
    if (!session.permissions.manageWorkspace) {
      setPeople([me]);
      return;
    }
    api
      .members()
      .then((answer) => {
        if (!live) return;
        const active = answer.data.filter((member) => member.status === 'active');
        setPeople(active.map((member) => ({ id: member.userId, name: member.name || member.email })));
      })
      .catch(() => live && setPeople([me]));
    return () => {
      live = false;
    };
  }, [session.user, session.permissions.manageWorkspace]);

  // The chosen type's fields.
  useEffect(() => {
    if (!typeId) return;
    let live = true;
    setModel(undefined);
    api
      .readType(typeId)
      .then((answer) => live && setModel(answer.type))
      .catch((failure: unknown) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [typeId]);

  const updateListing = list.update;

  const onCreated = (record: RecordView) => {
    if (view === 'active') updateListing((records) => [record, ...records.filter((r) => r.id !== record.id)]);
    setNotice(model ? `“${recordTitle(model, record)}” created.` : undefined);
    setOpen({ kind: 'record', record });
  };

  const onRemoved = (record: RecordView, how: 'trashed' | 'restored' | 'deleted') => {
    updateListing((records) => records.filter((item) => item.id !== record.id));
    setOpen(undefined);
    const title = model ? `“${recordTitle(model, record)}”` : 'The record';
    setNotice(
      how === 'trashed'
        ? `${title} moved to the Trash.`
        : how === 'restored'
          ? `${title} restored.`
          : `${title} deleted permanently.`,
    );
  };

  const columns = model ? columnsOf(model) : [];
  const typeName = types?.find((type) => type.id === typeId)?.name ?? '';

  return (
    <section data-testid="records-page">
      <PageHeader
        title="Records"
        lead={
          <>
            The records of {session.workspace.name} that your role can read. Trashed records are erased 30
            days after they were trashed unless restored.
          </>
        }
      >
        {canWrite && model && view === 'active' ? (
          <button
            type="button"
            className="button button-primary"
            onClick={() => setOpen({ kind: 'create' })}
            data-testid="record-create"
          >
            New record
          </button>
        ) : null}
      </PageHeader>

      {!canWrite ? (
        <p className="notice notice-warning" data-testid="inactive-notice">
          Your membership of this workspace is inactive: you can read records but not change them.
        </p>
      ) : null}

      {types && types.length === 0 ? (
        <div className="empty" data-testid="records-no-types">
          Your role cannot read any record type.
        </div>
      ) : null}

      {types && typeId ? (
        <div className="toolbar">
          <label className="toolbar-field">
            <span className="visually-hidden">Record type</span>
            <select
              value={typeId}
              onChange={(event) => {
                setSearch('');
                show({ type: event.target.value });
              }}
              data-testid="record-type"
            >
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
            onChange={setSearch}
            testId="records-search"
          />
          <div className="segmented" role="group" aria-label="Show">
            <button
              type="button"
              aria-pressed={view === 'active'}
              onClick={() => show({ view: 'active' })}
              data-testid="records-view-active"
            >
              Records
            </button>
            <button
              type="button"
              aria-pressed={view === 'trashed'}
              onClick={() => show({ view: 'trashed' })}
              data-testid="records-view-trash"
            >
              Trash
            </button>
          </div>
        </div>
      ) : null}

      {notice ? (
        <p className="notice" role="status" data-testid="records-notice">
          {notice}
        </p>
      ) : null}
      <ErrorMessage message={error ?? list.error ?? list.moreError} />

      {!types || (typeId && (!model || !shown)) ? (
        <Loading failed={Boolean(error ?? list.error)} testId="records-loading" />
      ) : model && shown ? (
        shown.items.length === 0 ? (
          <div className="empty" data-testid="records-empty">
            {shown.query.search
              ? `No ${model.name.toLowerCase()} match “${shown.query.search}”.`
              : view === 'trashed'
                ? `No ${model.name.toLowerCase()} in the Trash.`
                : `No ${model.name.toLowerCase()} yet.`}
          </div>
        ) : (
          <>
            <ListTable
              stale={shown !== current}
              className="table records-table"
              testId="records-table"
              view={view}
              columns={[...columns.map((field) => field.name), view === 'trashed' ? 'Trashed' : 'Updated']}
            >
              {shown.items.map((record) => (
                <OpenRow
                  key={record.id}
                  onOpen={() => setOpen({ kind: 'record', record })}
                  data-testid="record-row"
                  data-record-id={record.id}
                  data-title={recordTitle(model, record)}
                >
                  {columns.map((field, index) => (
                    <td key={field.id}>
                      {index === 0 ? (
                        <RowOpenButton
                          onOpen={() => setOpen({ kind: 'record', record })}
                          testId="record-open"
                        >
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
        )
      ) : null}

      {open?.kind === 'create' && model ? (
        <Dialog
          title={`New record in ${model.name}`}
          onClose={() => setOpen(undefined)}
          testId="record-create-dialog"
          wide
        >
          <RecordForm type={model} people={people} onCancel={() => setOpen(undefined)} onSaved={onCreated} />
        </Dialog>
      ) : null}
      {open?.kind === 'record' && model ? (
        <RecordDialog
          key={open.record.id}
          type={model}
          record={open.record}
          canWrite={canWrite}
          people={people}
          onClose={() => setOpen(undefined)}
          onChanged={(record) =>
            updateListing((records) => records.map((r) => (r.id === record.id ? record : r)))
          }
          onRemoved={onRemoved}
        />
      ) : null}
    </section>
  );
}
