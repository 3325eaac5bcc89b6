// Records (every signed-in member): pick a record type the role can read, list its records
// (search, Trash, "Load more" with the cursor), open one, create, edit, move to the Trash,
// restore and delete permanently. The routes are the REST API's under /app/api (app-api.md,
// "Records and the record model"); each write emits its record event.
import { useEffect, useState } from 'react';
import {
  api,
  errorMessage,
  type RecordStatus,
  type RecordType,
  type RecordTypeSummary,
  type RecordView,
} from '../api';
import { Dialog, ErrorMessage } from '../components/Dialog';
import { Loading } from '../components/ListParts';
import { PageHeader } from '../components/PageHeader';
import { RecordDialog } from '../components/records/RecordDialog';
import { RecordForm, type Person } from '../components/records/RecordForm';
import { RecordsTable, RecordsToolbar } from '../components/records/RecordsListParts';
import { recordTitle } from '../records';
import { useRouter } from '../router';
import { useSession } from '../session';
import { useDebounced } from '../hooks/useDebounced';
import { usePagedList } from '../hooks/usePagedList';

const PAGE_SIZE = 25;
const SEARCH_DELAY_MS = 250;

/** The query listed: an answer to an older query never replaces a newer one. */
type ListQuery = { typeId: string; view: RecordStatus; search: string };

const fetchRecords = (query: ListQuery, cursor: string | undefined) =>
  api.records(query.typeId, { status: query.view, search: query.search, limit: PAGE_SIZE, cursor });

type Open = { kind: 'create' } | { kind: 'record'; record: RecordView };

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
        <RecordsToolbar
          types={types}
          typeId={typeId}
          view={view}
          search={search}
          onSearch={setSearch}
          onType={(type) => {
            setSearch('');
            show({ type });
          }}
          onView={(shownView) => show({ view: shownView })}
        />
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
        <RecordsTable
          model={model}
          listing={shown}
          list={list}
          view={view}
          onOpen={(record) => setOpen({ kind: 'record', record })}
        />
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
