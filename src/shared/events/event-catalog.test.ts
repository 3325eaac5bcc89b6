import { z } from 'zod';
import {
  isMessagingEvent,
  isRecordEvent,
  isRetiredEvent,
  MESSAGING_EVENTS,
  OPERATIONAL_EVENTS,
  RECORD_EVENTS,
  RETIRED_EVENTS,
  WEBHOOK_EVENTS,
  DELIVERED_EVENTS,
} from './event-catalog';

describe('event catalog', () => {
  it('holds the 16 selectable events: 5 record and 11 messaging, no duplicates', () => {
    expect(RECORD_EVENTS).toHaveLength(5);
    expect(MESSAGING_EVENTS).toHaveLength(11);
    expect(WEBHOOK_EVENTS).toHaveLength(16);
    expect(new Set(WEBHOOK_EVENTS).size).toBe(16);
  });

  it('keeps the 3 operational events out of the catalog; the service delivers all 19', () => {
    expect(OPERATIONAL_EVENTS).toHaveLength(3);
    expect(OPERATIONAL_EVENTS.some((event) => (WEBHOOK_EVENTS as readonly string[]).includes(event))).toBe(
      false,
    );
    expect(new Set(DELIVERED_EVENTS).size).toBe(19);
  });

  it('holds the 15 retired type-specific names, none of them selectable', () => {
    expect(RETIRED_EVENTS).toHaveLength(15);
    expect(new Set(RETIRED_EVENTS).size).toBe(15);
    expect(RETIRED_EVENTS).toEqual(
      expect.arrayContaining(['contact.created', 'task.deleted', 'deal.updated']),
    );
    expect(RETIRED_EVENTS.filter((name) => (WEBHOOK_EVENTS as readonly string[]).includes(name))).toEqual([]);
  });

  it('can be used as a zod enum', () => {
    const sut = z.enum(WEBHOOK_EVENTS);
    expect(sut.safeParse('messaging.calendar_event.changed').success).toBe(true);
    expect(sut.safeParse('contact.created').success).toBe(false);
  });

  it.each([
    ['record.created', true, false, false],
    ['record.deletedPermanently', true, false, false],
    ['messaging.message.reaction', false, true, false],
    ['messaging.relation.created', false, true, false],
    ['organization.updated', false, false, true],
    ['service.deleted', false, false, true],
    ['record.archived', false, false, false],
    ['messaging.email.updated', false, false, false],
    ['Contact.created', false, false, false],
    ['', false, false, false],
  ])('%j: record %s, messaging %s, retired %s', (name, record, messaging, retired) => {
    expect(isRecordEvent(name)).toBe(record);
    expect(isMessagingEvent(name)).toBe(messaging);
    expect(isRetiredEvent(name)).toBe(retired);
  });
});
