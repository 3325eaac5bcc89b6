// The Events field of the webhook dialog: the catalog's events in groups with All/None per group,
// and the retired events a webhook still holds (shown, never selectable again).
import { EVENT_GROUPS, eventLabel, isRetiredEvent, type WebhookDraft } from '../../webhooks';

export function EventsField({
  draft,
  readOnly,
  onChange,
}: {
  draft: WebhookDraft;
  readOnly: boolean;
  onChange: (events: string[]) => void;
}) {
  const legacy = draft.events.filter((event) => isRetiredEvent(event));
  const toggle = (event: string, on: boolean) =>
    onChange(on ? [...draft.events, event] : draft.events.filter((name) => name !== event));
  return (
    <fieldset className="link-field events-field" data-testid="webhook-events">
      <legend>Events</legend>
      <div className="event-groups">
        {EVENT_GROUPS.map((group) => {
          const all = group.events.every((event) => draft.events.includes(event));
          return (
            <div
              key={group.label}
              className="event-group"
              data-testid="webhook-event-group"
              data-group={group.label}
            >
              <div className="event-group-header">
                <strong>{group.label}</strong>
                {readOnly ? null : (
                  <button
                    type="button"
                    className="link-button small"
                    onClick={() =>
                      onChange(
                        all
                          ? draft.events.filter((event) => !group.events.includes(event))
                          : [...new Set([...draft.events, ...group.events])],
                      )
                    }
                    data-testid="webhook-events-all"
                  >
                    {all ? 'None' : 'All'}
                  </button>
                )}
              </div>
              {group.events.map((event) => (
                <label key={event} className="inline">
                  <input
                    type="checkbox"
                    checked={draft.events.includes(event)}
                    disabled={readOnly}
                    onChange={(change) => toggle(event, change.target.checked)}
                    data-testid="webhook-event"
                    data-event={event}
                  />
                  <code>{event}</code>
                </label>
              ))}
            </div>
          );
        })}
      </div>
      {legacy.length ? (
        <p className="hint" data-testid="webhook-legacy-events">
          Also subscribed to retired events: {legacy.map((event) => eventLabel(event, true)).join(', ')}. They
          cannot be selected again: changing the events removes them.
        </p>
      ) : null}
    </fieldset>
  );
}
