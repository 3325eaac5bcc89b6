import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { withDefinitions } from './definitions';
import { NAME_KEY } from './subschemas';

const window = {
  type: 'object',
  properties: { delivered: { type: 'integer', minimum: 0 }, failed: { type: 'integer', minimum: 0 } },
  required: ['delivered', 'failed'],
  additionalProperties: false,
};
const webhook = {
  [NAME_KEY]: 'Webhook',
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' }, last24h: window, last7d: window },
  required: ['id', 'last24h', 'last7d'],
  additionalProperties: false,
};
/** A union of answers holding the webhook twice, as manage_webhooks' did. */
const answers = {
  type: 'object',
  anyOf: [
    webhook,
    {
      type: 'object',
      properties: { data: { type: 'array', items: webhook }, nextCursor: { type: ['string', 'null'] } },
      required: ['data', 'nextCursor'],
      additionalProperties: false,
    },
  ],
};

describe('withDefinitions', () => {
  const sut = withDefinitions(answers);

  it('writes a repeated subschema once, under its name, and refers to it from every place', () => {
    expect(sut.anyOf).toEqual([
      { $ref: '#/definitions/Webhook' },
      expect.objectContaining({
        properties: expect.objectContaining({
          data: { type: 'array', items: { $ref: '#/definitions/Webhook' } },
        }),
      }),
    ]);
    expect(Object.keys(sut.definitions as object)).toEqual(['Webhook', 'last24hOrLast7d']);
    expect((sut.definitions as any).Webhook.properties.last7d).toEqual({
      $ref: '#/definitions/last24hOrLast7d',
    });
    expect(JSON.stringify(sut).length).toBeLessThan(JSON.stringify(answers).length);
  });

  it('leaves small and single subschemas in place, and no name marks behind', () => {
    expect((sut.definitions as any).Webhook.properties.id).toEqual({ type: 'string', format: 'uuid' });
    expect(JSON.stringify(sut)).not.toContain(NAME_KEY);
    const once = { type: 'object', properties: { one: window } };
    expect(withDefinitions(once)).toEqual(once);
  });

  it('validates with the SDK client’s Ajv exactly as the schema it came from', () => {
    const validator = new AjvJsonSchemaValidator();
    const [compact, original] = [sut, withoutNameMarks(answers)].map((schema) =>
      validator.getValidator(schema),
    );
    const counts = { delivered: 1, failed: 0 };
    const one = { id: '6f1c1a52-8c9e-4d0b-9a57-0f1a2b3c4d5e', last24h: counts, last7d: counts };
    for (const value of [
      one,
      { data: [one], nextCursor: null },
      { ...one, last7d: { delivered: -1 } },
      { data: [{}] },
    ]) {
      expect(compact!(value).valid).toBe(original!(value).valid);
    }
    expect(compact!({ data: [one], nextCursor: 'c' }).valid).toBe(true);
    expect(compact!({ ...one, id: 'nope' }).valid).toBe(false);
  });
});

function withoutNameMarks(schema: object): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(schema, (key, value: unknown) => (key === NAME_KEY ? undefined : value)),
  ) as Record<string, unknown>;
}
