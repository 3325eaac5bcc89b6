// Deliveries (roles with Read access All on API & Webhooks): the delivery log of every webhook,
// newest first, with the spec's columns (URL, Event, Element, Status, Status Code, Created at).
// Search matches the event and the URL; the status, event, exact URL and creation date filters are
// applied by the server, and kept in the page's address so a link or a reload shows the same rows.
// Opening a row shows Event Details (spec.md, "Web app actions for webhooks and keys").
import { useEffect, useMemo, useState } from 'react';
import { api, errorMessage, type DeliveryListQuery, type DeliveryView, type RecordTypeSummary } from '../api';
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
import { RETIRED_EVENTS } from '../../shared/event-catalog';
import {
  SELECTABLE_EVENTS,
  STATUS_LABELS,
  deliveriesPath,
  deliveryFiltersOf,
  deliveryListQuery,
  eventLabel,
  hasDeliveryFilters,
  isUnfinished,
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
  const { search: location, navigate } = useRouter();
  const canResend = session.permissions.apiCreate && session.member.status === 'active';

  const filters = deliveryFiltersOf(location);
  const setFilters = (change: Partial<DeliveryFilters>) =>
    navigate(deliveriesPath({ ...filters, ...change }), { replace: true });
  const [listing, setListing] = useState<Listing>();
  const [error, setError] = useState<string>();
  const [types, setTypes] = useState<RecordTypeSummary[]>([]);
  const [open, setOpen] = useState<DeliveryView>();
  const [reloads, setReloads] = useState(0);
  const more = useSubmit();

  // Typing in the search box asks the server once it pauses; the other filters apply at once.
  const search = useDebounced(filters.search, SEARCH_DELAY_MS);
  const key = JSON.stringify(deliveryListQuery({ ...filters, search }));
  const current = listing?.key === key ? listing : undefined;
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
      .deliveries({ ...(JSON.parse(key) as DeliveryListQuery), limit: PAGE_SIZE })
      .then((page) => {
        if (!live) return;
        setError(undefined);
        setListing((before) =>
          before?.key === key && before.deliveries.length > PAGE_SIZE
            ? // More pages are loaded: keep them, with the first page's rows brought up to date.
              { ...before, deliveries: mergeDeliveries(page.data, before.deliveries) }
            : { key, deliveries: page.data, nextCursor: page.nextCursor },
        );
      })
      .catch((failure: unknown) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [key, reloads]);

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
      const page = await api.deliveries({
        ...(JSON.parse(key) as DeliveryListQuery),
        limit: PAGE_SIZE,
        cursor,
      });
      setListing((before) =>
        before?.key === key
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
  const filtered = hasDeliveryFilters(filters);
  const urlOptions = [...new Set(loaded.map((delivery) => delivery.url))];

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
          value={filters.search}
          onChange={(search) => setFilters({ search })}
          testId="deliveries-search"
        />
        <label className="toolbar-field">
          <span className="visually-hidden">Status</span>
          <select
            value={filters.status}
            onChange={(change) => setFilters({ status: change.target.value as DeliveryFilters['status'] })}
            data-testid="deliveries-status"
          >
            <option value="">All statuses</option>
            {Object.entries(STATUS_LABELS).map(([status, label]) => (
              <option key={status} value={status}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="toolbar-field">
          <span className="visually-hidden">Event</span>
          <select
            value={filters.event}
            onChange={(change) => setFilters({ event: change.target.value })}
            data-testid="deliveries-event"
          >
            <option value="">All events</option>
            {SELECTABLE_EVENTS.map((name) => (
              <option key={name} value={name}>
                {eventLabel(name)}
              </option>
            ))}
            <optgroup label="Retired (old deliveries only)">
              {RETIRED_EVENTS.map((name) => (
                <option key={name} value={name}>
                  {eventLabel(name)}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        <label className="toolbar-field">
          <span className="visually-hidden">URL (exact)</span>
          <input
            type="text"
            placeholder="Exact URL"
            list="deliveries-url-options"
            value={filters.url}
            onChange={(change) => setFilters({ url: change.target.value })}
            data-testid="deliveries-url"
          />
          <datalist id="deliveries-url-options">
            {urlOptions.map((url) => (
              <option key={url} value={url} />
            ))}
          </datalist>
        </label>
        <DateRange
          label="Created"
          from={filters.createdFrom}
          to={filters.createdTo}
          onFrom={(createdFrom) => setFilters({ createdFrom })}
          onTo={(createdTo) => setFilters({ createdTo })}
          testId="deliveries-created"
        />
        <ClearFilters
          filtered={filtered}
          onClear={() => navigate(deliveriesPath({}), { replace: true })}
          testId="deliveries-clear-filters"
        />
      </div>

      <ErrorMessage message={error ?? more.error} />

      {!shown ? (
        <Loading failed={Boolean(error)} testId="deliveries-loading" />
      ) : loaded.length === 0 ? (
        <div className="empty" data-testid="deliveries-empty">
          {filtered ? 'No delivery matches the search and filters.' : 'No deliveries yet.'}
        </div>
      ) : (
        <>
          <ListTable
            stale={shown !== current}
            className="table deliveries-table"
            testId="deliveries-table"
            columns={['URL', 'Event', 'Element', 'Status', 'Status Code', 'Created at']}
          >
            {loaded.map((delivery) => (
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
                  {delivery.trigger === 'test' ? (
                    <span className="tag" data-testid="delivery-test-tag">
                      Test
                    </span>
                  ) : null}
                </td>
                <td data-testid="delivery-cell-element">
                  <ElementName delivery={delivery} typeName={typeName} />
                </td>
                <td>
                  <DeliveryStatusBadge delivery={delivery} />
                </td>
                {/* spec.md: no response → a dash in Event Details, an empty cell in the list. */}
                <td data-testid="delivery-cell-status-code">{delivery.statusCode ?? ''}</td>
                <td>
                  <DateTime value={delivery.createdAt} testId="delivery-created-at" seconds />
                </td>
              </OpenRow>
            ))}
          </ListTable>
          <div className="load-more">
            <span className="muted" data-testid="deliveries-count">
              {loaded.length} {loaded.length === 1 ? 'delivery' : 'deliveries'} shown
              {current?.nextCursor ? ', more older ones match' : ''}.
            </span>
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
