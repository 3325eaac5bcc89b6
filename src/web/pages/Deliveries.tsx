// Deliveries (roles with Read access All on API & Webhooks): the delivery log of every webhook,
// newest first, with the spec's columns (URL, Event, Element, Status, Status Code, Created at).
// Search matches the event and the URL (the server's `searchTerm`); the event, URL and creation
// date filters narrow the loaded pages in the browser (the server filters by `searchTerm` only).
// Opening a row shows Event Details (spec.md, "Web app actions for webhooks and keys").
import { useEffect, useMemo, useState } from 'react';
import { api, errorMessage, type DeliveryView, type RecordTypeSummary } from '../api';
import { DateRange } from '../components/DateRange';
import { DeliveryStatusBadge, ElementName } from '../components/DeliveryParts';
import { ErrorMessage } from '../components/Dialog';
import {
  ClearFilters,
  ListTable,
  LoadMoreButton,
  Loading,
  OpenRow,
  SearchField,
  UrlOpenCell,
} from '../components/ListParts';
import { EventDetailsDialog } from '../components/EventDetailsDialog';
import { PageHeader } from '../components/PageHeader';
import { DateTime } from '../format';
import { useRouter } from '../router';
import { useSession } from '../session';
import { useDebounced } from '../useDebounced';
import { useSubmit } from '../useSubmit';
import {
  SELECTABLE_EVENTS,
  deliverySearchTerm,
  eventLabel,
  isUnfinished,
  matchesDelivery,
  mergeDeliveries,
  type DeliveryFilters,
} from '../webhooks';

const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 250;
/** While a shown delivery is Pending or Sending, the first page is read again this often. */
const POLL_MS = 2000;

type Listing = { key: string; deliveries: DeliveryView[]; nextCursor: string | null };

export function DeliveriesPage() {
  const session = useSession();
  const { search: location } = useRouter();
  const urlParam = new URLSearchParams(location).get('url') ?? '';
  const canResend = session.permissions.apiCreate && session.member.status === 'active';

  const [search, setSearch] = useState('');
  const [event, setEvent] = useState('');
  const [url, setUrl] = useState(urlParam);
  const [createdFrom, setCreatedFrom] = useState('');
  const [createdTo, setCreatedTo] = useState('');
  const [listing, setListing] = useState<Listing>();
  const [error, setError] = useState<string>();
  const [types, setTypes] = useState<RecordTypeSummary[]>([]);
  const [open, setOpen] = useState<DeliveryView>();
  const [reloads, setReloads] = useState(0);
  const more = useSubmit();

  // "Show deliveries" of another webhook while this page is open: the new URL filter.
  useEffect(() => setUrl(urlParam), [urlParam]);

  const filters: DeliveryFilters = { search, event, url, createdFrom, createdTo };
  const searchTerm = useDebounced(deliverySearchTerm(filters), SEARCH_DELAY_MS);
  const current = listing?.key === searchTerm ? listing : undefined;
  const shown = current ?? listing;

  // Type names for the Element column.
  useEffect(() => {
    let live = true;
    api
      .discoverModel()
      .then((answer) => live && setTypes(answer.types))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  // The first page for the search term (again after a resend, and while deliveries are under way).
  useEffect(() => {
    let live = true;
    api
      .deliveries({ searchTerm: searchTerm || undefined, limit: PAGE_SIZE })
      .then((page) => {
        if (!live) return;
        setError(undefined);
        setListing((before) =>
          before?.key === searchTerm && before.deliveries.length > PAGE_SIZE
            ? // More pages are loaded: keep them, with the first page's rows brought up to date.
              { ...before, deliveries: mergeDeliveries(page.data, before.deliveries) }
            : { key: searchTerm, deliveries: page.data, nextCursor: page.nextCursor },
        );
      })
      .catch((failure: unknown) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [searchTerm, reloads]);

  const underWay = Boolean(current?.deliveries.some((delivery) => isUnfinished(delivery.status)));
  useEffect(() => {
    if (!underWay) return;
    const timer = setTimeout(() => setReloads((count) => count + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [underWay, reloads]);

  const loadMore = () => {
    const cursor = current?.nextCursor;
    if (!cursor) return;
    void more.run(async () => {
      const page = await api.deliveries({ searchTerm: searchTerm || undefined, limit: PAGE_SIZE, cursor });
      setListing((before) =>
        before?.key === searchTerm
          ? {
              ...before,
              deliveries: mergeDeliveries(page.data, before.deliveries),
              nextCursor: page.nextCursor,
            }
          : before,
      );
    });
  };

  const typeName = useMemo(() => {
    const names = new Map(types.map((type) => [type.id, type.name]));
    return (typeId: string) => names.get(typeId);
  }, [types]);

  const loaded = shown?.deliveries ?? [];
  const visible = loaded.filter((delivery) => matchesDelivery(delivery, filters));
  const filtered = Boolean(search.trim() || event || url.trim() || createdFrom || createdTo);
  // Retired names appear only in old deliveries: offer the ones loaded, after the catalog.
  const eventOptions = [
    ...SELECTABLE_EVENTS,
    ...new Set(loaded.map((delivery) => delivery.event).filter((name) => !SELECTABLE_EVENTS.includes(name))),
  ];

  const onChanged = (delivery: DeliveryView) =>
    setListing((before) =>
      before ? { ...before, deliveries: mergeDeliveries([delivery], before.deliveries) } : before,
    );

  return (
    <section data-testid="deliveries-page">
      <PageHeader
        title="Deliveries"
        lead={
          <>
            Every delivery of every webhook, newest first. Open one for its Event Details: the payload, each
            attempt, and Resend.
          </>
        }
      >
        <button
          type="button"
          className="button"
          onClick={() => setReloads((count) => count + 1)}
          data-testid="deliveries-refresh"
        >
          Refresh
        </button>
      </PageHeader>

      <div className="toolbar filters">
        <SearchField
          label="Search event and URL"
          value={search}
          onChange={setSearch}
          testId="deliveries-search"
        />
        <label className="toolbar-field">
          <span className="visually-hidden">Event</span>
          <select
            value={event}
            onChange={(change) => setEvent(change.target.value)}
            data-testid="deliveries-event"
          >
            <option value="">All events</option>
            {eventOptions.map((name) => (
              <option key={name} value={name}>
                {eventLabel(name)}
              </option>
            ))}
          </select>
        </label>
        <label className="toolbar-field">
          <span className="visually-hidden">URL</span>
          <input
            type="text"
            placeholder="URL"
            value={url}
            onChange={(change) => setUrl(change.target.value)}
            data-testid="deliveries-url"
          />
        </label>
        <DateRange
          label="Created"
          from={createdFrom}
          to={createdTo}
          onFrom={setCreatedFrom}
          onTo={setCreatedTo}
          testId="deliveries-created"
        />
        <ClearFilters
          filtered={filtered}
          onClear={() => {
            setSearch('');
            setEvent('');
            setUrl('');
            setCreatedFrom('');
            setCreatedTo('');
          }}
          testId="deliveries-clear-filters"
        />
      </div>

      <ErrorMessage message={error ?? more.error} />

      {!shown ? (
        <Loading failed={Boolean(error)} testId="deliveries-loading" />
      ) : visible.length === 0 ? (
        <div className="empty" data-testid="deliveries-empty">
          {filtered ? 'No loaded delivery matches the search and filters.' : 'No deliveries yet.'}
          {current?.nextCursor ? (
            <>
              {' '}
              <button
                type="button"
                className="link-button"
                onClick={loadMore}
                data-testid="deliveries-load-more"
              >
                Load older deliveries
              </button>
            </>
          ) : null}
        </div>
      ) : (
        <>
          <ListTable
            stale={shown !== current}
            className="table deliveries-table"
            testId="deliveries-table"
            columns={['URL', 'Event', 'Element', 'Status', 'Status Code', 'Created at']}
          >
            {visible.map((delivery) => (
              <OpenRow
                key={delivery.id}
                onOpen={() => setOpen(delivery)}
                data-testid="delivery-row"
                data-delivery-id={delivery.id}
                data-status={delivery.status}
                data-trigger={delivery.trigger}
              >
                <UrlOpenCell url={delivery.url} onOpen={() => setOpen(delivery)} testId="delivery-open" />
                <td data-testid="delivery-cell-event">
                  <code>{delivery.event}</code>
                  {delivery.legacy ? <span className="legacy-marker"> (legacy)</span> : null}
                  {delivery.trigger === 'resend' ? <span className="tag">Resend</span> : null}
                </td>
                <td data-testid="delivery-cell-element">
                  <ElementName delivery={delivery} typeName={typeName} />
                </td>
                <td>
                  <DeliveryStatusBadge delivery={delivery} />
                </td>
                <td data-testid="delivery-cell-status-code">{delivery.statusCode ?? '—'}</td>
                <td>
                  <DateTime value={delivery.createdAt} testId="delivery-created-at" seconds />
                </td>
              </OpenRow>
            ))}
          </ListTable>
          <div className="load-more">
            {visible.length < loaded.length ? (
              <span className="muted" data-testid="deliveries-filtered-count">
                {visible.length} of {loaded.length} loaded deliveries match.
              </span>
            ) : null}
            {current?.nextCursor ? (
              <LoadMoreButton busy={more.busy} onClick={loadMore} testId="deliveries-load-more" />
            ) : null}
          </div>
        </>
      )}

      {open ? (
        <EventDetailsDialog
          key={open.id}
          delivery={open}
          typeName={typeName}
          canResend={canResend}
          onClose={() => setOpen(undefined)}
          onChanged={onChanged}
        />
      ) : null}
    </section>
  );
}
