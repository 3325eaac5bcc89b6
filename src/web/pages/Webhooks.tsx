// Webhooks (roles with Read access All on API & Webhooks): the workspace's webhooks, newest first,
// with the spec's columns (URL, Description, Events, Status, Created at, Updated at), search on the
// URL, creation and update date filters and "Load more". Add, open a row to edit (read-only
// without Edit), Delete inside the dialog, and Show deliveries in the row menu
// (README.md#using-it). The routes are the REST API's under /app/api.
import { useState } from 'react';
import { api, type WebhookListQuery, type WebhookView } from '../api';
import { DateRange } from '../components/DateRange';
import { ErrorMessage } from '../components/Dialog';
import {
  ClearFilters,
  ListTable,
  LoadMore,
  Loading,
  OpenRow,
  SearchField,
  UrlOpenCell,
} from '../components/ListParts';
import { PageHeader } from '../components/PageHeader';
import { ResendFailedDialog } from '../components/deliveries/ResendFailedDialog';
import { RowMenu } from '../components/RowMenu';
import { SendTestEventDialog } from '../components/webhooks/SendTestEventDialog';
import { WebhookHealthDialog } from '../components/webhooks/WebhookHealthDialog';
import { WebhookHealthSummary } from '../components/webhooks/WebhookHealthSummary';
import { WebhookDialog, type WebhookRights } from '../components/webhooks/WebhookDialog';
import { DisabledByService } from '../components/alerts/DisabledByService';
import { DateTime } from '../format';
import { useRouter } from '../router';
import { useSession } from '../session';
import { useDebounced } from '../hooks/useDebounced';
import { usePagedList } from '../hooks/usePagedList';
import { deliveriesPathOf } from '../deliveries/deliveries';
import { dayBound, eventLabel, maySteer } from '../webhooks';

const PAGE_SIZE = 25;
const SEARCH_DELAY_MS = 250;
const EVENTS_SHOWN = 3;

type Filters = { createdFrom: string; createdTo: string; updatedFrom: string; updatedTo: string };
const NO_FILTERS: Filters = { createdFrom: '', createdTo: '', updatedFrom: '', updatedTo: '' };

type Open =
  | { kind: 'add' }
  | { kind: 'webhook'; webhook: WebhookView }
  | { kind: 'test'; webhook: WebhookView }
  | { kind: 'resend-failed'; webhook: WebhookView }
  | { kind: 'health'; webhook: WebhookView };

/** The list query of the search box and the date filters (local calendar days). */
function listQuery(search: string, filters: Filters): WebhookListQuery {
  return {
    search: search || undefined,
    createdFrom: dayBound(filters.createdFrom, false),
    createdTo: dayBound(filters.createdTo, true),
    updatedFrom: dayBound(filters.updatedFrom, false),
    updatedTo: dayBound(filters.updatedTo, true),
  };
}

const fetchWebhooks = (query: WebhookListQuery, cursor: string | undefined) =>
  api.webhooks({ ...query, limit: PAGE_SIZE, cursor });

export function WebhooksPage() {
  const session = useSession();
  const { navigate } = useRouter();
  const { permissions } = session;
  const active = session.member.status === 'active';
  const rights: WebhookRights = {
    create: permissions.apiCreate && active,
    edit: permissions.apiEdit && active,
    delete: permissions.apiDelete && active,
  };

  const [search, setSearch] = useState('');
  const debouncedSearch = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [open, setOpen] = useState<Open>();
  const [notice, setNotice] = useState<string>();
  // A webhook just added: the notice offers "Send test event" for it, the quickest check of the receiver.
  const [added, setAdded] = useState<WebhookView>();

  const list = usePagedList(listQuery(debouncedSearch, filters), fetchWebhooks);
  const { current, error } = list;
  const filtered = Boolean(debouncedSearch) || Object.values(filters).some(Boolean);

  const setFilter = (name: keyof Filters, value: string) => setFilters((now) => ({ ...now, [name]: value }));
  const showDeliveries = (webhook: WebhookView) => navigate(deliveriesPathOf({ url: webhook.url }));

  const onSaved = (webhook: WebhookView, created: boolean) => {
    setOpen(undefined);
    setNotice(created ? `Webhook to ${webhook.url} added.` : `Webhook to ${webhook.url} saved.`);
    setAdded(created && webhook.enabled ? webhook : undefined);
    list.update((webhooks) => webhooks.map((item) => (item.id === webhook.id ? webhook : item)));
    list.reload();
  };

  const onEnabled = (webhook: WebhookView) => {
    setNotice(`Webhook to ${webhook.url} re-enabled.`);
    setAdded(undefined);
    list.update((webhooks) => webhooks.map((item) => (item.id === webhook.id ? webhook : item)));
  };
  // Switching it on is a change of how it sends: Edit, and on someone else's record webhook an Admin.
  const mayEnable = (webhook: WebhookView) => rights.edit && maySteer(webhook, session);

  const onDeleted = (webhook: WebhookView) => {
    setOpen(undefined);
    setNotice(`Webhook to ${webhook.url} deleted. Its deliveries stay in the log.`);
    setAdded(undefined);
    list.update((webhooks) => webhooks.filter((item) => item.id !== webhook.id));
    list.reload();
  };

  const shown = current ?? list.listing;
  // The rows shown are of an older query while the newer one is read (dimmed).
  const stale = shown !== current;

  return (
    <section data-testid="webhooks-page">
      <PageHeader
        title="Webhooks"
        lead={
          <>
            Signed JSON POSTs of CRM events to your systems, retried automatically. Every delivery is logged
            on the Deliveries page.
          </>
        }
      >
        {rights.create ? (
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setNotice(undefined);
              setOpen({ kind: 'add' });
            }}
            data-testid="webhook-add"
          >
            Add
          </button>
        ) : null}
      </PageHeader>

      {!active ? (
        <p className="notice notice-warning" data-testid="inactive-notice">
          Your membership of this workspace is inactive: you cannot manage webhooks.
        </p>
      ) : null}

      <div className="toolbar filters">
        <SearchField label="Search URL" value={search} onChange={setSearch} testId="webhooks-search" />
        <DateRange
          label="Created"
          from={filters.createdFrom}
          to={filters.createdTo}
          onFrom={(value) => setFilter('createdFrom', value)}
          onTo={(value) => setFilter('createdTo', value)}
          testId="webhooks-created"
        />
        <DateRange
          label="Updated"
          from={filters.updatedFrom}
          to={filters.updatedTo}
          onFrom={(value) => setFilter('updatedFrom', value)}
          onTo={(value) => setFilter('updatedTo', value)}
          testId="webhooks-updated"
        />
        <ClearFilters
          filtered={filtered}
          onClear={() => {
            setSearch('');
            setFilters(NO_FILTERS);
          }}
          testId="webhooks-clear-filters"
        />
      </div>

      {notice ? (
        <p className="notice" role="status" data-testid="webhooks-notice">
          {notice}
          {added ? (
            <>
              {' '}
              <button
                type="button"
                className="link-button"
                onClick={() => setOpen({ kind: 'test', webhook: added })}
                data-testid="webhooks-notice-send-test"
              >
                Send test event
              </button>
            </>
          ) : null}
        </p>
      ) : null}
      <ErrorMessage message={error ?? list.moreError} />

      {!shown ? (
        <Loading failed={Boolean(error)} testId="webhooks-loading" />
      ) : shown.items.length === 0 ? (
        <div className="empty" data-testid="webhooks-empty" aria-busy={stale}>
          {filtered
            ? 'No webhook matches the search and filters.'
            : rights.create
              ? 'No webhooks yet. Add one to receive CRM events.'
              : 'No webhooks yet.'}
        </div>
      ) : (
        <>
          <ListTable
            stale={stale}
            className="table webhooks-table"
            testId="webhooks-table"
            columns={['URL', 'Description', 'Events', 'Status', 'Created at', 'Updated at']}
            actions
          >
            {shown.items.map((webhook) => (
              <WebhookRow
                key={webhook.id}
                webhook={webhook}
                rights={rights}
                onOpen={setOpen}
                onShowDeliveries={showDeliveries}
                canEnable={mayEnable(webhook)}
                onEnabled={onEnabled}
              />
            ))}
          </ListTable>
          <LoadMore list={list} testId="webhooks-load-more" />
        </>
      )}

      {open?.kind === 'health' ? (
        <WebhookHealthDialog
          webhook={open.webhook}
          onClose={() => setOpen(undefined)}
          onShowDeliveries={showDeliveries}
        />
      ) : open?.kind === 'resend-failed' ? (
        <ResendFailedDialog
          webhook={open.webhook}
          onClose={() => setOpen(undefined)}
          onShowDeliveries={showDeliveries}
        />
      ) : open?.kind === 'test' ? (
        <SendTestEventDialog
          webhook={open.webhook}
          onClose={() => setOpen(undefined)}
          onShowDeliveries={showDeliveries}
        />
      ) : open ? (
        <WebhookDialog
          key={open.kind === 'add' ? 'add' : open.webhook.id}
          webhook={open.kind === 'add' ? undefined : open.webhook}
          rights={rights}
          onClose={() => setOpen(undefined)}
          onSaved={onSaved}
          onDeleted={onDeleted}
          onShowDeliveries={showDeliveries}
        />
      ) : null}
    </section>
  );
}

/** A webhook's row: its URL opens it; its menu leads to deliveries, health, a test event and resends. */
function WebhookRow({
  webhook,
  rights,
  onOpen,
  onShowDeliveries,
  canEnable,
  onEnabled,
}: {
  webhook: WebhookView;
  rights: WebhookRights;
  onOpen: (open: Open) => void;
  onShowDeliveries: (webhook: WebhookView) => void;
  canEnable: boolean;
  onEnabled: (webhook: WebhookView) => void;
}) {
  return (
    <OpenRow
      onOpen={() => onOpen({ kind: 'webhook', webhook })}
      data-testid="webhook-row"
      data-webhook-id={webhook.id}
      data-url={webhook.url}
    >
      <UrlOpenCell
        url={webhook.url}
        onOpen={() => onOpen({ kind: 'webhook', webhook })}
        testId="webhook-open"
      />
      <td className="cell-description" data-testid="webhook-cell-description">
        {webhook.description ?? <span className="value-missing">—</span>}
      </td>
      <td data-testid="webhook-cell-events">
        <EventTags events={webhook.events} />
      </td>
      <td data-testid="webhook-cell-status">
        <span
          className={webhook.enabled ? 'status status-delivered' : 'status status-muted'}
          data-testid="webhook-status"
        >
          {webhook.enabled ? 'Enabled' : 'Disabled'}
        </span>
        <DisabledByService webhook={webhook} canEnable={canEnable} onEnabled={onEnabled} compact />
        <WebhookHealthSummary webhook={webhook} />
      </td>
      <td>
        <DateTime value={webhook.createdAt} testId="webhook-created-at" />
      </td>
      <td>
        <DateTime value={webhook.updatedAt} testId="webhook-updated-at" />
      </td>
      <td className="cell-actions">
        <RowMenu
          label={`Actions for ${webhook.url}`}
          testId="webhook-menu"
          items={[
            {
              label: 'Show deliveries',
              hint: 'The delivery log of this URL.',
              onSelect: () => onShowDeliveries(webhook),
              testId: 'webhook-show-deliveries',
            },
            {
              label: 'Health',
              hint: 'Success rates and a chart of its deliveries.',
              onSelect: () => onOpen({ kind: 'health', webhook }),
              testId: 'webhook-show-health',
            },
            {
              label: rights.edit ? 'Edit' : 'Open',
              onSelect: () => onOpen({ kind: 'webhook', webhook }),
              testId: 'webhook-menu-open',
            },
            ...(rights.create
              ? [
                  {
                    label: 'Send test event',
                    hint: 'A sample event, signed and logged as a test.',
                    onSelect: () => onOpen({ kind: 'test', webhook }),
                    testId: 'webhook-send-test',
                  },
                  {
                    label: 'Resend failed since…',
                    hint: 'Resend its Failed deliveries since a time.',
                    onSelect: () => onOpen({ kind: 'resend-failed', webhook }),
                    testId: 'webhook-resend-failed',
                  },
                ]
              : []),
          ]}
        />
      </td>
    </OpenRow>
  );
}

function EventTags({ events }: { events: string[] }) {
  const shown = events.slice(0, EVENTS_SHOWN);
  const rest = events.length - shown.length;
  return (
    <span className="event-tags" title={events.map((event) => eventLabel(event)).join('\n')}>
      {shown.map((event) => (
        <span key={event} className="tag tag-plain" data-testid="webhook-event-tag">
          {eventLabel(event)}
        </span>
      ))}
      {rest > 0 ? <span className="muted"> +{rest} more</span> : null}
    </span>
  );
}
