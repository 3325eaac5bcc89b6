// Webhooks (roles with Read access All on API & Webhooks): the workspace's webhooks, newest first,
// with the spec's columns (URL, Description, Events, Status, Created at, Updated at), search on the
// URL, creation and update date filters and "Load more". Add, open a row to edit (read-only
// without Edit), Delete inside the dialog, and Show deliveries in the row menu (spec.md, "Web app
// actions for webhooks and keys"). The routes are the REST API's under /app/api.
import { useState } from 'react';
import { api, type WebhookListQuery, type WebhookView } from '../api';
import { DateRange } from '../components/DateRange';
import { ErrorMessage } from '../components/Dialog';
import { LoadMore, TableWrap } from '../components/ListParts';
import { RowMenu } from '../components/RowMenu';
import { WebhookDialog, type WebhookRights } from '../components/WebhookDialog';
import { DateTime } from '../format';
import { useRouter } from '../router';
import { useSession } from '../session';
import { useDebounced } from '../useDebounced';
import { usePagedList } from '../usePagedList';
import { dayBound, deliveriesPathOf, eventLabel } from '../webhooks';

const PAGE_SIZE = 25;
const SEARCH_DELAY_MS = 250;
const EVENTS_SHOWN = 3;

type Filters = { createdFrom: string; createdTo: string; updatedFrom: string; updatedTo: string };
const NO_FILTERS: Filters = { createdFrom: '', createdTo: '', updatedFrom: '', updatedTo: '' };

type Open = { kind: 'add' } | { kind: 'webhook'; webhook: WebhookView };

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

  const list = usePagedList(listQuery(debouncedSearch, filters), fetchWebhooks);
  const { current, error } = list;
  const filtered = Boolean(debouncedSearch) || Object.values(filters).some(Boolean);

  const setFilter = (name: keyof Filters, value: string) => setFilters((now) => ({ ...now, [name]: value }));
  const showDeliveries = (webhook: WebhookView) => navigate(deliveriesPathOf(webhook.url));

  const onSaved = (webhook: WebhookView, created: boolean) => {
    setOpen(undefined);
    setNotice(created ? `Webhook to ${webhook.url} added.` : `Webhook to ${webhook.url} saved.`);
    list.update((webhooks) => webhooks.map((item) => (item.id === webhook.id ? webhook : item)));
    list.reload();
  };

  const onDeleted = (webhook: WebhookView) => {
    setOpen(undefined);
    setNotice(`Webhook to ${webhook.url} deleted. Its deliveries stay in the log.`);
    list.update((webhooks) => webhooks.filter((item) => item.id !== webhook.id));
    list.reload();
  };

  const shown = current ?? list.listing;

  return (
    <section data-testid="webhooks-page">
      <div className="page-header">
        <div>
          <h1>Webhooks</h1>
          <p className="lead">
            Signed JSON POSTs of CRM events to your systems, retried automatically. Every delivery is logged
            on the Deliveries page.
          </p>
        </div>
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
      </div>

      {!active ? (
        <p className="notice notice-warning" data-testid="inactive-notice">
          Your membership of this workspace is inactive: you cannot manage webhooks.
        </p>
      ) : null}

      <div className="toolbar filters">
        <label className="toolbar-field toolbar-search">
          <span className="visually-hidden">Search URL</span>
          <input
            type="search"
            placeholder="Search URL"
            value={search}
            maxLength={200}
            onChange={(event) => setSearch(event.target.value)}
            data-testid="webhooks-search"
          />
        </label>
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
        {filtered ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              setSearch('');
              setFilters(NO_FILTERS);
            }}
            data-testid="webhooks-clear-filters"
          >
            Clear
          </button>
        ) : null}
      </div>

      {notice ? (
        <p className="notice" role="status" data-testid="webhooks-notice">
          {notice}
        </p>
      ) : null}
      <ErrorMessage message={error ?? list.moreError} />

      {!shown ? (
        error ? null : (
          <p className="muted" data-testid="webhooks-loading">
            Loading…
          </p>
        )
      ) : shown.items.length === 0 ? (
        <div className="empty" data-testid="webhooks-empty" aria-busy={shown !== current}>
          {filtered
            ? 'No webhook matches the search and filters.'
            : rights.create
              ? 'No webhooks yet. Add one to receive CRM events.'
              : 'No webhooks yet.'}
        </div>
      ) : (
        <>
          <TableWrap stale={shown !== current}>
            <table className="table webhooks-table" data-testid="webhooks-table">
              <thead>
                <tr>
                  <th>URL</th>
                  <th>Description</th>
                  <th>Events</th>
                  <th>Status</th>
                  <th>Created at</th>
                  <th>Updated at</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.items.map((webhook) => (
                  <tr
                    key={webhook.id}
                    className="row-link"
                    onClick={() => setOpen({ kind: 'webhook', webhook })}
                    data-testid="webhook-row"
                    data-webhook-id={webhook.id}
                    data-url={webhook.url}
                  >
                    <td className="cell-url">
                      <button
                        type="button"
                        className="link-button break"
                        onClick={(event) => {
                          event.stopPropagation();
                          setOpen({ kind: 'webhook', webhook });
                        }}
                        data-testid="webhook-open"
                      >
                        {webhook.url}
                      </button>
                    </td>
                    <td className="cell-description" data-testid="webhook-cell-description">
                      {webhook.description ?? <span className="value-missing">—</span>}
                    </td>
                    <td data-testid="webhook-cell-events">
                      <EventTags events={webhook.events} />
                    </td>
                    <td data-testid="webhook-cell-status">
                      <span className={webhook.enabled ? 'status status-delivered' : 'status status-muted'}>
                        {webhook.enabled ? 'Enabled' : 'Disabled'}
                      </span>
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
                            onSelect: () => showDeliveries(webhook),
                            testId: 'webhook-show-deliveries',
                          },
                          {
                            label: rights.edit ? 'Edit' : 'Open',
                            onSelect: () => setOpen({ kind: 'webhook', webhook }),
                            testId: 'webhook-menu-open',
                          },
                        ]}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <LoadMore
            nextCursor={current?.nextCursor}
            busy={list.moreBusy}
            onClick={list.loadMore}
            testId="webhooks-load-more"
          />
        </>
      )}

      {open ? (
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
