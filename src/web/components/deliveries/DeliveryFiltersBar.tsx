// The Deliveries page's search and filters (docs/deliveries.md, "The delivery log"): search, the
// spec's four statuses (Failed narrowed on request to the retrying ones or those failed for good),
// event, webhook, exact URL, the delivery, event and record ids, and the creation dates or the
// exact times a chart bar opened the page with. The page keeps them in its address.
import { SHORT_ID_LENGTH } from '../../../shared/deliveries/delivery-ids';
import {
  FAILED_STATE_LABELS,
  ID_FILTERS,
  STATUS_LABELS,
  type DeliveryFilters,
} from '../../deliveries/deliveries';
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
        <FilterSelect
          label="Status"
          value={filters.status}
          allLabel="All statuses"
          options={Object.entries(STATUS_LABELS)}
          onChange={(status) => setFilters({ status: status as DeliveryFilters['status'], state: '' })}
          testId="deliveries-status"
        />
        {filters.status === 'failed' ? (
          <FilterSelect
            label="Failed deliveries"
            value={filters.state}
            allLabel="Retrying or not"
            options={Object.entries(FAILED_STATE_LABELS)}
            onChange={(state) => setFilters({ state: state as DeliveryFilters['state'] })}
            testId="deliveries-state"
          />
        ) : null}
        <FilterSelect
          label="Event"
          value={filters.event}
          allLabel="All events"
          options={eventOptions.map((name) => [name, eventLabel(name)])}
          onChange={(event) => setFilters({ event })}
          testId="deliveries-event"
        />
        <FilterSelect
          label="Webhook"
          value={filters.webhookId}
          allLabel="All webhooks"
          options={webhookOptions.map((webhook) => [webhook.id, webhook.label])}
          onChange={(webhookId) => setFilters({ webhookId })}
          testId="deliveries-webhook"
        />
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

/** One of the bar's choices: '' (its first option) applies no filter. */
function FilterSelect({
  label,
  value,
  allLabel,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  allLabel: string;
  /** Each choice's value and label. */
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label className="toolbar-field">
      <span className="visually-hidden">{label}</span>
      <select value={value} onChange={(change) => onChange(change.target.value)} data-testid={testId}>
        <option value="">{allLabel}</option>
        {options.map(([option, optionLabel]) => (
          <option key={option} value={option}>
            {optionLabel}
          </option>
        ))}
      </select>
    </label>
  );
}
