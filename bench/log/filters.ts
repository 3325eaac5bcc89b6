// The delivery log's filters as the Deliveries page, REST and MCP offer them (issue 38): each alone,
// every pair of them, and the rare values (a rare event, a URL with three deliveries, a webhook with
// another webhook's URL), as query strings of `GET /api/v1/webhooks/deliveries`.

export interface FilterTarget {
  /** A webhook with a fifth of the log, and the URL it delivers to. */
  webhookId: string;
  webhookUrl: string;
  /** Another webhook's URL: with `webhookId`, a combination that matches nothing. */
  otherUrl: string;
  /** A URL with three old deliveries, and a part of it for the search. */
  rareUrl: string;
}

/** Seeded at 1 % of the log (bench/log/seed.ts), and at 0.01 %. */
export const ONE_PERCENT_EVENT = 'messaging.chat.updated';
export const RARE_EVENT = 'messaging.calendar_event.changed';

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();

/** Each family of filter with the value the bench gives it (the one-day window: 14 to 15 days ago). */
function families(target: FilterTarget): Record<string, Record<string, string>> {
  return {
    webhook: { webhookId: target.webhookId },
    event: { event: ONE_PERCENT_EVENT },
    status: { status: 'failed' },
    url: { url: target.webhookUrl },
    window: { createdFrom: day(15), createdTo: day(14) },
    // The two messaging chat events: 1.5 % of the log, matched by their name.
    search: { searchTerm: 'chat' },
  };
}

/** [what the table says, the query string] for every filter, pair and rare case. */
export function filterRoutes(target: FilterTarget): [label: string, query: string][] {
  const family = families(target);
  const names = Object.keys(family);
  const query = (...parts: Record<string, string>[]) =>
    new URLSearchParams(Object.assign({ limit: '50' }, ...parts) as Record<string, string>).toString();
  const singles: [string, string][] = [
    [`event=${ONE_PERCENT_EVENT} (1 %)`, query(family.event!)],
    [`event=${RARE_EVENT} (0.01 %)`, query({ event: RARE_EVENT })],
    ['event=record.created (55 %)', query({ event: 'record.created' })],
    ['webhookId= (20 %)', query(family.webhook!)],
    ['status=failed', query(family.status!)],
    ['state=failed (for good)', query({ state: 'failed' })],
    ['status=pending (the last minute)', query({ status: 'pending' })],
    ['url= (20 %)', query(family.url!)],
    ['url= (3 deliveries)', query({ url: target.rareUrl })],
    ["one day's window", query(family.window!)],
    ['searchTerm=chat (1.5 %)', query(family.search!)],
  ];
  const pairs: [string, string][] = [];
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++)
      pairs.push([`${names[i]} + ${names[j]}`, query(family[names[i]!]!, family[names[j]!]!)]);
  const rare: [string, string][] = [
    ['webhook + rare event', query(family.webhook!, { event: RARE_EVENT })],
    ['webhook + another webhook’s URL (none)', query(family.webhook!, { url: target.otherUrl })],
    ['webhook + state=retrying', query(family.webhook!, { state: 'retrying' })],
    ['rare event + status=failed', query({ event: RARE_EVENT }, family.status!)],
    ['event + state=retrying', query(family.event!, { state: 'retrying' })],
    ['webhook + event + status=failed', query(family.webhook!, family.event!, family.status!)],
    ['webhook + url + event', query(family.webhook!, family.url!, family.event!)],
  ];
  return [...singles, ...pairs, ...rare];
}
