// Deliveries (roles with Read access All on API & Webhooks): the delivery log of every webhook,
// newest first, with the spec's columns (URL, Event, Element, Status, Status Code, Created at).
// The Status column and filter use the spec's four statuses; a Failed delivery whose next attempt
// is scheduled says when beside its status (docs/deliveries.md#retrying). Search
// (event and URL) and the filters are applied by the server and kept in the page's address, so a
// link or a reload shows the same log; the count is the server's, over every page. Opening a row
// shows Event Details (README.md#using-it).
import { useEffect, useMemo, useState } from 'react';
import { api, errorMessage, type DeliveryPage, type DeliveryView, type RecordTypeSummary } from '../api';
import { DeliveryFiltersBar } from '../components/deliveries/DeliveryFiltersBar';
import { DeliveryStatusBadge, DeliveryWebhook, ElementName } from '../components/deliveries/DeliveryParts';
import { ErrorMessage } from '../components/Dialog';
import { ListTable, LoadMoreButton, Loading, OpenRow, UrlOpenCell } from '../components/ListParts';
import { EventDetailsDialog } from '../components/deliveries/EventDetailsDialog';
import { PageHeader } from '../components/PageHeader';
import { DateTime } from '../format';
import { useRouter } from '../router';
import { useSession } from '../session';
import { useDebounced } from '../hooks/useDebounced';
import { useSubmit } from '../hooks/useSubmit';
import {
  deliveriesPathOf,
  deliveryCount,
  deliveryFiltersOf,
  deliveryQueryOf,
  eventFilterOptions,
  hasDeliveryFilters,
  ID_FILTERS,
  invalidIdFilters,
  isUnfinished,
  mergeDeliveries,
  webhookLabel,
  type DeliveryFilters,
} from '../deliveries/deliveries';

const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 250;
/** While a shown delivery is Pending or Sending, the first page is read again this often. */
const POLL_MS = 2000;
/** The webhook filter offers the workspace's webhooks (the list's largest page). */
const WEBHOOK_OPTIONS_LIMIT = 200;

type Listing = {
  /** The server query listed, as JSON. */
  key: string;
  deliveries: DeliveryView[];
  nextCursor: string | null;
  total: DeliveryPage['total'];
};
type WebhookOption = { id: string; label: string };

export function DeliveriesPage() {
  const session = useSession();
  const { search: location, navigate } = useRouter();
  const filters = useMemo(() => deliveryFiltersOf(location), [location]);
  const canResend = session.permissions.apiCreate && session.member.status === 'active';

  const [listing, setListing] = useState<Listing>();
  const [error, setError] = useState<string>();
  const [types, setTypes] = useState<RecordTypeSummary[]>([]);
  const [webhooks, setWebhooks] = useState<WebhookOption[]>([]);
  const [legacyEvents, setLegacyEvents] = useState<string[]>([]);
  const [open, setOpen] = useState<DeliveryView>();
  const [reloads, setReloads] = useState(0);
  const more = useSubmit();

  // The address holds the filters: a change replaces it (no history entry per keystroke).
  const setFilters = (change: Partial<DeliveryFilters>) =>
    navigate(deliveriesPathOf({ ...filters, ...change }), { replace: true });

  const key = useDebounced(JSON.stringify(deliveryQueryOf(filters)), SEARCH_DELAY_MS);
  const current = listing?.key === key ? listing : undefined;
  const shown = current ?? listing;

  // Type names for the Element column, the webhooks for the webhook filter, and the retired events
  // this workspace has for the event filter.
  useEffect(() => {
    let live = true;
    api
      .legacyEvents()
      .then((answer) => live && setLegacyEvents(answer.events))
      .catch(() => undefined);
    api
      .discoverModel()
      .then((answer) => live && setTypes(answer.types))
      .catch(() => undefined);
    api
      .webhooks({ limit: WEBHOOK_OPTIONS_LIMIT })
      .then(
        (page) =>
          live && setWebhooks(page.data.map((webhook) => ({ id: webhook.id, label: webhookLabel(webhook) }))),
      )
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  // The first page of the query (again after a resend, and while deliveries are under way).
  useEffect(() => {
    let live = true;
    api
      .deliveries({ ...JSON.parse(key), limit: PAGE_SIZE })
      .then((page) => {
        if (!live) return;
        setError(undefined);
        setListing((before) =>
          before?.key === key && before.deliveries.length > PAGE_SIZE
            ? // More pages are loaded: keep them, with the first page's rows brought up to date.
              { ...before, deliveries: mergeDeliveries(page.data, before.deliveries), total: page.total }
            : { key, deliveries: page.data, nextCursor: page.nextCursor, total: page.total },
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
      const page = await api.deliveries({ ...JSON.parse(key), limit: PAGE_SIZE, cursor });
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
  const invalidIds = invalidIdFilters(filters);
  // A search for an id finds nothing (it matches URLs and event names): offer the id filters it fits.
  const searchedIds = ID_FILTERS.filter(({ valid }) => filters.search.trim() !== '' && valid(filters.search));
  // The catalog, then the retired names this workspace has, and a name the address asks for.
  const eventOptions = eventFilterOptions(legacyEvents, filters.event);
  // A webhook asked for by the address but not listed (deleted since) is still offered.
  const webhookOptions =
    filters.webhookId && !webhooks.some((webhook) => webhook.id === filters.webhookId)
      ? [...webhooks, { id: filters.webhookId, label: `Deleted webhook ${filters.webhookId.slice(0, 8)}` }]
      : webhooks;

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

      <DeliveryFiltersBar
        filters={filters}
        setFilters={setFilters}
        onClear={() => navigate(deliveriesPathOf({}), { replace: true })}
        eventOptions={eventOptions}
        webhookOptions={webhookOptions}
        invalidIds={invalidIds}
        filtered={filtered}
      />
      <ErrorMessage message={error ?? more.error} />

      {!shown ? (
        <Loading failed={Boolean(error)} testId="deliveries-loading" />
      ) : loaded.length === 0 ? (
        <div className="empty" data-testid="deliveries-empty">
          {filtered ? 'No delivery matches the search and filters.' : 'No deliveries yet.'}
          {searchedIds.length ? (
            <p data-testid="deliveries-search-as-id">
              The search matches the URL and the event name. Look for <code>{filters.search.trim()}</code> as{' '}
              {searchedIds.map(({ name, label }, index) => (
                <span key={name}>
                  {index ? ' or ' : ''}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setFilters({ search: '', [name]: filters.search.trim() })}
                    data-testid={`deliveries-search-as-${name}`}
                  >
                    {label.toLowerCase()}
                  </button>
                </span>
              ))}
              ?
            </p>
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
            {loaded.map((delivery) => (
              <OpenRow
                key={delivery.id}
                onOpen={() => setOpen(delivery)}
                data-testid="delivery-row"
                data-delivery-id={delivery.id}
                data-status={delivery.status}
                data-state={delivery.state}
                data-trigger={delivery.trigger}
              >
                <UrlOpenCell url={delivery.url} onOpen={() => setOpen(delivery)} testId="delivery-open">
                  <DeliveryWebhook webhook={delivery.webhook} />
                </UrlOpenCell>
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
                {/* Empty when no response arrived (docs/deliveries.md#the-delivery-log: the list
                    column stays empty). */}
                <td data-testid="delivery-cell-status-code">{delivery.statusCode ?? ''}</td>
                <td>
                  <DateTime value={delivery.createdAt} testId="delivery-created-at" seconds />
                </td>
              </OpenRow>
            ))}
          </ListTable>
          <div className="load-more">
            <span className="muted" data-testid="deliveries-total">
              {shown.nextCursor
                ? `${loaded.length.toLocaleString('en-US')} of ${deliveryCount(shown.total)} shown`
                : deliveryCount(shown.total)}
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
