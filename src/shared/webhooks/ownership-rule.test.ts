import {
  changedSendingFields,
  checkWebhookSteering,
  maySendRecordDeliveryAgain,
  maySteerWebhook,
  type SendingSettings,
} from './ownership-rule';

const saved: SendingSettings = {
  url: 'https://example.com/hook',
  headers: { 'X-A': '1', 'X-B': '2' },
  secret: 'sekrit',
  bodyTemplate: '{"e":"{{event}}"}',
  recordTrigger: { query: { typeId: 't1' }, changedFieldIds: ['f1'] },
  recordSources: null,
  events: ['record.created', 'record.updated'],
  operationalEvents: [],
  enabled: true,
  standardWebhooks: false,
  rateLimit: null,
  recordOwnerUserId: 'owner',
};
const member = { userId: 'member', isAdmin: false };

describe('maySteerWebhook', () => {
  it('lets the record owner, an administrator, and anyone on an ownerless webhook steer it', () => {
    expect(maySteerWebhook({ userId: 'owner', isAdmin: false }, 'owner')).toBe(true);
    expect(maySteerWebhook({ userId: 'admin', isAdmin: true }, 'owner')).toBe(true);
    expect(maySteerWebhook(member, null)).toBe(true);
    expect(maySteerWebhook(member, 'owner')).toBe(false);
  });
});

describe('maySendRecordDeliveryAgain (resend, Retry now)', () => {
  it('lets the record owner and an administrator send a record event again; an ownerless webhook only administrators', () => {
    expect(maySendRecordDeliveryAgain({ userId: 'owner', isAdmin: false }, 'owner')).toBe(true);
    expect(maySendRecordDeliveryAgain({ userId: 'admin', isAdmin: true }, 'owner')).toBe(true);
    expect(maySendRecordDeliveryAgain({ userId: 'admin', isAdmin: true }, null)).toBe(true);
    expect(maySendRecordDeliveryAgain(member, 'owner')).toBe(false);
    expect(maySendRecordDeliveryAgain(member, null)).toBe(false);
  });
});

describe('changedSendingFields', () => {
  it('does not count a field sent with the value it already has', () => {
    expect(
      changedSendingFields(saved, {
        url: 'example.com/hook', // saved with https:// in front
        headers: { 'X-B': '2', 'X-A': '1' },
        secret: 'sekrit',
        bodyTemplate: '{"e":"{{event}}"}',
        recordTrigger: { changedFieldIds: ['f1'], query: { typeId: 't1' } },
        recordSources: null,
        events: ['record.updated', 'record.created', 'record.created'],
        enabled: true,
        standardWebhooks: false,
        rateLimit: null,
        recordOwnerUserId: 'owner',
        description: 'anything',
      }),
    ).toEqual([]);
    expect(changedSendingFields({ ...saved, headers: null }, { headers: {} })).toEqual([]);
  });

  it('lists every sending field that changes', () => {
    expect(
      changedSendingFields(saved, {
        url: 'https://attacker.example/in',
        headers: { 'X-A': '1' },
        secret: null,
        bodyTemplate: null,
        recordTrigger: null,
        recordSources: [{ query: { typeId: 't1' } }],
        events: ['record.created'],
        enabled: false,
        standardWebhooks: true,
        rateLimit: 5,
        recordOwnerUserId: 'member',
      }),
    ).toEqual([
      'url',
      'headers',
      'secret',
      'bodyTemplate',
      'recordTrigger',
      'recordSources',
      'events',
      'enabled',
      'standardWebhooks',
      'rateLimit',
      'recordOwnerUserId',
    ]);
    expect(changedSendingFields(saved, { url: 'mailto:x@example.com' })).toEqual(['url']);
  });
});

describe('checkWebhookSteering', () => {
  it('refuses a non-owner’s change of where or how the webhook sends with webhookOwnedByAnother', () => {
    expect(() => checkWebhookSteering(member, saved, { url: 'https://attacker.example/in' })).toThrow(
      expect.objectContaining({
        kind: 'authorization',
        issues: [expect.objectContaining({ customCode: 'webhookOwnedByAnother', path: ['url'] })],
      }),
    );
    expect(() => checkWebhookSteering(member, saved, { recordOwnerUserId: 'member' })).toThrow(
      expect.objectContaining({ kind: 'authorization' }),
    );
  });

  it('allows a description change, an unchanged resend, and the owner or an administrator', () => {
    expect(() => checkWebhookSteering(member, saved, { description: 'renamed' })).not.toThrow();
    expect(() => checkWebhookSteering(member, saved, { url: saved.url, enabled: true })).not.toThrow();
    const move = { url: 'https://elsewhere.example/in' };
    expect(() => checkWebhookSteering({ userId: 'owner', isAdmin: false }, saved, move)).not.toThrow();
    expect(() => checkWebhookSteering({ userId: 'admin', isAdmin: true }, saved, move)).not.toThrow();
    expect(() => checkWebhookSteering(member, { ...saved, recordOwnerUserId: null }, move)).not.toThrow();
  });
});
