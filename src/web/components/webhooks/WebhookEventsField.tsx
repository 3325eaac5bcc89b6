// The Events field of the webhook dialog: the catalog's events in groups with All/None per group,
// each with what it announces and a Sample of its body, and the retired events a webhook still
// holds (shown, never selectable again); the operational events, their own subscription, beside.
import { useState } from 'react';
import { describeEvent } from '../../../shared/events/event-catalog-descriptions';
import { EVENT_GROUPS, eventLabel, isRetiredEvent } from '../../webhooks';
import type { WebhookDraft } from '../../webhook-draft';
import { LinkButton } from '../Dialog';
import { RichText } from '../OpenApi';
import { EVENT_SAMPLE_PANEL_ID, EventSamplePanel } from './EventSamplePanel';

type EventsPatch = Partial<Pick<WebhookDraft, 'events' | 'operationalEvents'>>;

export function EventsField({
  draft,
  readOnly,
  onChange,
}: {
  draft: WebhookDraft;
  readOnly: boolean;
  onChange: (patch: EventsPatch) => void;
}) {
  const legacy = draft.events.filter((event) => isRetiredEvent(event));
  const [sampled, setSampled] = useState<string>();
  const set = (field: keyof EventsPatch, events: string[]) => onChange({ [field]: events });
  return (
    <fieldset className="link-field events-field" data-testid="webhook-events">
      <legend>Events</legend>
      <div className="event-groups">
        {EVENT_GROUPS.map((group) => {
          const chosen = draft[group.field];
          const toggle = (event: string, on: boolean) =>
            set(group.field, on ? [...chosen, event] : chosen.filter((name) => name !== event));
          const all = group.events.every((event) => chosen.includes(event));
          return (
            <div
              key={group.label}
              className="event-group"
              data-testid="webhook-event-group"
              data-group={group.label}
            >
              <div className="event-group-header">
                <strong>{group.label}</strong>
                {group.field === 'operationalEvents' ? (
                  <span className="hint">about the workspace’s other webhooks</span>
                ) : null}
                {readOnly ? null : (
                  <LinkButton
                    small
                    onClick={() =>
                      set(
                        group.field,
                        all
                          ? chosen.filter((event) => !group.events.includes(event))
                          : [...new Set([...chosen, ...group.events])],
                      )
                    }
                    testId="webhook-events-all"
                  >
                    {all ? 'None' : 'All'}
                  </LinkButton>
                )}
              </div>
              {group.events.map((event) => (
                <div
                  key={event}
                  className="event-option"
                  data-testid="webhook-event-option"
                  data-event={event}
                >
                  <div className="event-option-name">
                    <label className="inline">
                      <input
                        type="checkbox"
                        checked={chosen.includes(event)}
                        disabled={readOnly}
                        onChange={(change) => toggle(event, change.target.checked)}
                        aria-describedby={`event-description-${event}`}
                        data-testid="webhook-event"
                        data-event={event}
                      />
                      <code>{event}</code>
                    </label>
                    <LinkButton
                      small
                      aria-expanded={sampled === event}
                      aria-controls={sampled === event ? EVENT_SAMPLE_PANEL_ID : undefined}
                      onClick={() => setSampled(sampled === event ? undefined : event)}
                      testId="webhook-event-sample-toggle"
                    >
                      {sampled === event ? 'Hide sample' : 'Sample'}
                    </LinkButton>
                  </div>
                  <span
                    className="hint event-description"
                    id={`event-description-${event}`}
                    data-testid="webhook-event-description"
                  >
                    <RichText text={describeEvent(event)} />
                  </span>
                </div>
              ))}
            </div>
          );
        })}
      </div>
      {sampled ? <EventSamplePanel event={sampled} onClose={() => setSampled(undefined)} /> : null}
      {legacy.length ? (
        <p className="hint" data-testid="webhook-legacy-events">
          Also subscribed to retired events: {legacy.map((event) => eventLabel(event, true)).join(', ')}. They
          cannot be selected again: changing the events removes them.
        </p>
      ) : null}
    </fieldset>
  );
}
