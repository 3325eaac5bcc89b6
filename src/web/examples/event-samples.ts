// A sample body of each event, as a receiver gets it: the example of the event's entry in the
// OpenAPI document's `webhooks` section, which the server builds with the code of its test events
// (src/deliveries/test-events/event-webhooks.openapi.ts). Read from there so the sample cannot drift
// from what the server sends. No React here.
import { api, type OpenApiDocument } from '../api';

/** Each event's sample body, by event name, from the document's `webhooks` section. */
export function eventSamplesOf(document: Pick<OpenApiDocument, 'webhooks'>): ReadonlyMap<string, unknown> {
  const samples = new Map<string, unknown>();
  for (const [event, item] of Object.entries(document.webhooks ?? {})) {
    const example = item.post?.requestBody?.content['application/json']?.example;
    if (example !== undefined) samples.set(event, example);
  }
  return samples;
}

let loaded: Promise<ReadonlyMap<string, unknown>> | undefined;

/** The samples, read once per page load (the document changes only with the server's version). */
export function loadEventSamples(): Promise<ReadonlyMap<string, unknown>> {
  loaded ??= api.openApi().then(eventSamplesOf, (failure: unknown) => {
    loaded = undefined; // a later look tries again
    throw failure;
  });
  return loaded;
}
