import { describe, expect, it } from '@jest/globals';
import type { OpenApiOperation } from '../api';
import { API_KEY_PLACEHOLDER, curlExample, placeholderOf, shellQuote } from './curl-example';

const operation = (extra: Partial<OpenApiOperation> = {}): OpenApiOperation => ({
  operationId: 'x',
  summary: 'x',
  tags: [],
  responses: {},
  ...extra,
});
const sut = (method: string, path: string, op: OpenApiOperation) =>
  curlExample({ method, path, operation: op, baseUrl: 'https://crm.example.com', keyHeader: 'x-api-key' });

describe('curl example', () => {
  it('a GET: the URL on the base URL with placeholders, and the key header', () => {
    expect(sut('get', '/api/v1/webhooks/{id}/deliveries/{deliveryId}', operation())).toBe(
      [
        "curl 'https://crm.example.com/api/v1/webhooks/ID/deliveries/DELIVERY_ID'",
        `-H 'x-api-key: ${API_KEY_PLACEHOLDER}'`,
      ].join(' \\\n  '),
    );
  });

  it('a write with a body example: the method, Content-Type and the example as JSON the shell passes whole', () => {
    const example = { url: "https://o'brien.example.com/hook", events: ['record.created'] };
    const command = sut(
      'post',
      '/api/v1/webhooks',
      operation({
        requestBody: { required: true, content: { 'application/json': { schema: {}, example } } },
      }),
    );
    expect(command.split(' \\\n  ').slice(0, 3)).toEqual([
      "curl -X POST 'https://crm.example.com/api/v1/webhooks'",
      `-H 'x-api-key: ${API_KEY_PLACEHOLDER}'`,
      "-H 'Content-Type: application/json'",
    ]);
    // The body is one shell word: the JSON, its `'` closed, escaped and reopened (the browser
    // test runs a command of the page in a real shell).
    const data = command.split(' \\\n  ')[3]!;
    expect(data.startsWith("-d '")).toBe(true);
    expect(JSON.parse(data.slice(4, -1).replace(/'\\''/g, "'"))).toEqual(example);
  });

  it('a public operation has no key header; required query and header parameters get placeholders', () => {
    const command = sut(
      'delete',
      '/api/v1/things/{thingId}',
      operation({
        security: [],
        parameters: [
          { name: 'confirm', in: 'query', required: true, schema: {} },
          { name: 'limit', in: 'query', required: false, schema: {} },
          { name: 'X-Provider-Signature', in: 'header', required: true, schema: {} },
          { name: 'Idempotency-Key', in: 'header', required: false, schema: {} },
        ],
      }),
    );
    expect(command).toBe(
      [
        "curl -X DELETE 'https://crm.example.com/api/v1/things/THING_ID?confirm=CONFIRM'",
        "-H 'X-Provider-Signature: X_PROVIDER_SIGNATURE'",
      ].join(' \\\n  '),
    );
  });

  it('MCP: accepts JSON and event streams, or the endpoint answers 406', () => {
    expect(sut('post', '/api/v1/mcp', operation())).toContain(
      "-H 'Accept: application/json, text/event-stream'",
    );
  });

  it('placeholders and quoting', () => {
    expect(placeholderOf('id')).toBe('ID');
    expect(placeholderOf('accountId')).toBe('ACCOUNT_ID');
    expect(placeholderOf('Idempotency-Key')).toBe('IDEMPOTENCY_KEY');
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });
});
