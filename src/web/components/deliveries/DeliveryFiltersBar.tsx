// The Deliveries page's search and filters (docs/deliveries.md, "The delivery log"): search, status,
// event, webhook, exact URL, the delivery, event and record ids, and the creation dates or the
// exact times a chart bar opened the page with. The page keeps them in its address.
import { SHORT_ID_LENGTH } from '../../../shared/deliveries/delivery-ids';
import { ID_FILTERS, STATE_FILTER_LABELS, type DeliveryFilters } from '../../deliveries';
import { eventLabel, isIsoTime } from '../../webhooks';
import { DateRange } from '../DateRange';
import { ClearFilters, SearchField } from '../ListParts';
import { CreatedTimes } from './CreatedTimes';

/** What each id filter takes, as its field's title and the message when its text is not yet one. */
const ID_FILTER_TITLES: Record<(typeof ID_FILTERS)[number]['name'], string> = {
  idPrefix: `Delivery id: the whole id, or its first ${SHORT_ID_LENGTH} or more characters.`,
  eventId: 'Event id: the whole id (the id every receiver of the event got).',
  recordId: 'Record id: the whole id of the record.',
};

type Props = {
  filters: DeliveryFilters;
  setFilters: (change: Partial<DeliveryFilters>) => void;
  onClear: () => void;
  /** The event filter's names and the webhook filter's webhooks. */
  eventOptions: readonly string[];
  webhookOptions: readonly { id: string; label: string }[];
  /** The id filters whose text is not an id yet (not applied). */
  invalidIds: readonly { name: (typeof ID_FILTERS)[number]['name'] }[];
  filtered: boolean;
};

export function DeliveryFiltersBar({
  filters,
  setFilters,
  onClear,
  eventOptions,
  webhookOptions,
  invalidIds,
  filtered,
}: Props) {
  return (
    <>
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
            {Object.entries(STATE_FILTER_LABELS).map(([state, label]) => (
              <option key={state} value={state}>
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
            {eventOptions.map((name) => (
              <option key={name} value={name}>
                {eventLabel(name)}
              </option>
            ))}
          </select>
        </label>
        <label className="toolbar-field">
          <span className="visually-hidden">Webhook</span>
          <select
            value={filters.webhookId}
            onChange={(change) => setFilters({ webhookId: change.target.value })}
            data-testid="deliveries-webhook"
          >
            <option value="">All webhooks</option>
            {webhookOptions.map((webhook) => (
              <option key={webhook.id} value={webhook.id}>
                {webhook.label}
              </option>
            ))}
          </select>
        </label>
        <label className="toolbar-field">
          <span className="visually-hidden">Exact URL</span>
          <input
            type="text"
            placeholder="Exact URL"
            title="Deliveries sent to exactly this URL (search matches part of a URL)"
            value={filters.url}
            maxLength={4096}
            onChange={(change) => setFilters({ url: change.target.value })}
            data-testid="deliveries-url"
          />
        </label>
        {ID_FILTERS.map(({ name, label }) => (
          <label className="toolbar-field" key={name}>
            <span className="visually-hidden">{label}</span>
            <input
              type="text"
              className="id-filter"
              placeholder={label}
              title={ID_FILTER_TITLES[name]}
              value={filters[name]}
              maxLength={36}
              spellCheck={false}
              aria-invalid={invalidIds.some((invalid) => invalid.name === name)}
              onChange={(change) => setFilters({ [name]: change.target.value })}
              data-testid={`deliveries-${name}`}
            />
          </label>
        ))}
        {isIsoTime(filters.createdFrom) || isIsoTime(filters.createdTo) ? (
          <CreatedTimes
            from={filters.createdFrom}
            to={filters.createdTo}
            onClear={() => setFilters({ createdFrom: '', createdTo: '' })}
            testId="deliveries-created-times"
          />
        ) : (
          <DateRange
            label="Created"
            from={filters.createdFrom}
            to={filters.createdTo}
            onFrom={(createdFrom) => setFilters({ createdFrom })}
            onTo={(createdTo) => setFilters({ createdTo })}
            testId="deliveries-created"
          />
        )}
        <ClearFilters filtered={filtered} onClear={onClear} testId="deliveries-clear-filters" />
      </div>

      {invalidIds.length ? (
        <p className="field-error" role="status" data-testid="deliveries-id-invalid">
          {invalidIds.map(({ name }) => ID_FILTER_TITLES[name]).join(' ')} Until then it is not applied.
        </p>
      ) : null}
    </>
  );
}
