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
        {choicesOf(filters, eventOptions, webhookOptions).map(([name, testId, label, allLabel, options]) => (
          <FilterSelect
            key={name}
            label={label}
            value={filters[name]}
            allLabel={allLabel}
            options={options}
            // A new status drops the narrowing of Failed.
            onChange={(value) => setFilters({ [name]: value, ...(name === 'status' ? { state: '' } : {}) })}
            testId={testId}
          />
        ))}
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

const FAILED_STATES = Object.entries(FAILED_STATE_LABELS);

/** A choice's filter, its test id, its label and its first option's, and its other options. */
type Choice = [
  name: 'status' | 'state' | 'event' | 'webhookId',
  testId: string,
  label: string,
  allLabel: string,
  options: readonly (readonly [string, string])[],
];

/** The bar's choices, in order: Failed is narrowed only while the status filter is Failed. */
function choicesOf(
  filters: DeliveryFilters,
  eventOptions: Props['eventOptions'],
  webhookOptions: Props['webhookOptions'],
): Choice[] {
  const events = eventOptions.map((name) => [name, eventLabel(name)] as const);
  const webhooks = webhookOptions.map((webhook) => [webhook.id, webhook.label] as const);
  const failed: Choice = ['state', 'deliveries-state', 'Failed deliveries', 'Retrying or not', FAILED_STATES];
  return [
    ['status', 'deliveries-status', 'Status', 'All statuses', Object.entries(STATUS_LABELS)],
    ...(filters.status === 'failed' ? [failed] : []),
    ['event', 'deliveries-event', 'Event', 'All events', events],
    ['webhookId', 'deliveries-webhook', 'Webhook', 'All webhooks', webhooks],
  ];
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
