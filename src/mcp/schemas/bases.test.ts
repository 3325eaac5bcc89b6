import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { withSharedBases } from './bases';
import { NAME_KEY } from './subschemas';

const uuid = { type: 'string', format: 'uuid' };
/** A delivery as manage_webhooks' outputSchema defines it, cut down. */
const delivery = {
  type: 'object',
  properties: {
    id: uuid,
    webhookId: uuid,
    url: { type: 'string' },
    event: { type: 'string' },
    status: { enum: ['pending', 'sending', 'delivered', 'failed'] },
    statusCode: { type: ['integer', 'null'] },
    responseMessage: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'webhookId', 'url', 'event', 'status', 'statusCode', 'responseMessage', 'createdAt'],
  additionalProperties: false,
};
/** EventDetails: the delivery, its payload and its attempts. */
const details = {
  [NAME_KEY]: 'EventDetails',
  ...delivery,
  properties: {
    ...delivery.properties,
    payload: { type: 'object' },
    attemptHistory: { type: 'array', items: { type: 'integer', minimum: 1 } },
  },
  required: [...delivery.required, 'payload', 'attemptHistory'],
};
const answers = {
  type: 'object',
  anyOf: [
    { $ref: '#/definitions/Delivery' },
    details,
    {
      type: 'object',
      properties: { data: { type: 'array', items: { $ref: '#/definitions/Delivery' } } },
      required: ['data'],
      additionalProperties: false,
    },
  ],
  definitions: { Delivery: delivery },
};

describe('withSharedBases', () => {
  const sut = withSharedBases(answers);
  const definitions = sut.definitions as Record<string, unknown>;

  it('writes the properties an answer shares with a defined one once, in a base both refer to', () => {
    expect(Object.keys(definitions)).toEqual(['Delivery', 'DeliveryOrEventDetails']);
    const base = { $ref: '#/definitions/DeliveryOrEventDetails' };
    expect(definitions.DeliveryOrEventDetails).toEqual({
      type: 'object',
      properties: details.properties,
      required: delivery.required,
      additionalProperties: false,
    });
    expect(definitions.Delivery).toEqual({
      allOf: [base, { properties: { payload: false, attemptHistory: false } }],
    });
    expect((sut.anyOf as unknown[])[1]).toEqual({
      allOf: [base, { required: ['payload', 'attemptHistory'] }],
    });
    expect(JSON.stringify(sut).length).toBeLessThan(JSON.stringify(answers).length - 300);
  });

  it('validates with the SDK client’s Ajv exactly as the schema it came from', () => {
    const validator = new AjvJsonSchemaValidator();
    const [shared, original] = [sut, withoutNameMarks(answers)].map((schema) =>
      validator.getValidator(schema),
    );
    const one = {
      id: '6f1c1a52-8c9e-4d0b-9a57-0f1a2b3c4d5e',
      webhookId: '0b8e2c1d-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
      url: 'https://example.com/hook',
      event: 'record.created',
      status: 'failed',
      statusCode: 500,
      responseMessage: 'Internal Server Error',
      createdAt: '2025-12-04T10:00:00Z',
    };
    const withDetails = { ...one, payload: { id: 'x' }, attemptHistory: [1, 2] };
    const cases = [
      one,
      withDetails,
      { data: [one] },
      { data: [withDetails] },
      { ...one, payload: {} },
      { ...one, attemptHistory: [] },
      { ...withDetails, attemptHistory: [0] },
      { ...withDetails, secret: 's' },
      { ...one, secret: 's' },
      { ...one, status: 'lost' },
      { ...withDetails, id: 'nope' },
      { ...one, statusCode: undefined },
    ];
    for (const value of cases) expect([value, shared!(value).valid]).toEqual([value, original!(value).valid]);
    expect([one, withDetails, { data: [one] }].map((value) => shared!(value).valid)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('leaves alone what does not extend a defined object, or would not get shorter', () => {
    const differs = {
      ...answers,
      anyOf: [{ ...details, properties: { ...details.properties, url: { type: 'string', maxLength: 9 } } }],
    };
    expect(withSharedBases(differs)).toEqual(differs);
    const open = { ...answers, anyOf: [{ ...details, additionalProperties: true }] };
    expect(withSharedBases(open)).toEqual(open);
    const small = { type: 'object', properties: { a: uuid }, additionalProperties: false };
    const tiny = {
      anyOf: [{ ...small, properties: { ...small.properties, b: uuid } }],
      definitions: { Small: small },
    };
    expect(withSharedBases(tiny)).toEqual(tiny);
  });
});

function withoutNameMarks(schema: object): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(schema, (key, value: unknown) => (key === NAME_KEY ? undefined : value)),
  ) as Record<string, unknown>;
}
