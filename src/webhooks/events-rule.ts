import { AppError, type ErrorIssue } from '../shared/app-error';
import { isRetiredEvent, WEBHOOK_EVENTS } from '../shared/events/event-catalog';

const KNOWN = new Set<string>(WEBHOOK_EVENTS);

/**
 * docs/api.md#webhook-rules: "Required, one or more, from the event catalog"; retired
 * type-specific events "cannot be selected". Returns the events without duplicates, in order.
 */
export function checkWebhookEvents(events: string[]): string[] {
  const issues: ErrorIssue[] = [];
  if (events.length === 0) {
    issues.push({
      code: 'invalid',
      path: ['events'],
      message: 'Choose at least one event.',
      customCode: 'webhookEventsRequired',
    });
  }
  events.forEach((event, index) => {
    if (isRetiredEvent(event)) {
      issues.push({
        code: 'invalid',
        path: ['events', index],
        message: `${event} is retired: use the record events (record.created, record.updated, …) instead.`,
        customCode: 'webhookEventRetired',
      });
    } else if (!KNOWN.has(event)) {
      issues.push({
        code: 'invalid',
        path: ['events', index],
        message: `${event} is not an event of the catalog.`,
        customCode: 'webhookEventUnknown',
      });
    }
  });
  if (issues.length) throw new AppError('validation', issues);
  return [...new Set(events)];
}
