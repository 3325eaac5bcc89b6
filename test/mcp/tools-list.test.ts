import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

type Schema = Record<string, any>;

/** Every subschema below `schema` with its path, the way a client reads them. */
function* subschemas(schema: Schema, path: string): Generator<[string, Schema]> {
  yield [path, schema];
  for (const [name, inner] of Object.entries<Schema>(schema.properties ?? {}))
    yield* subschemas(inner, `${path}.${name}`);
  for (const [key, inner] of Object.entries(schema)) {
    if (key === 'items' || (key === 'additionalProperties' && typeof inner === 'object')) {
      yield* subschemas(inner, `${path}[]`);
    }
  }
  for (const [i, inner] of (schema.anyOf ?? []).entries()) yield* subschemas(inner, `${path}|${i}`);
  for (const [name, inner] of Object.entries<Schema>(schema.definitions ?? {}))
    yield* subschemas(inner, `#${name}`);
}

/** Issue 27, item 4: an assistant's context is not free. */
describe('MCP tools/list', () => {
  let app: TestApp;
  let mcp: Awaited<ReturnType<typeof connectMcp>>;
  let tools: Tool[];

  beforeAll(async () => {
    app = await startTestApp();
    const admin = (await WebClient.signUp(app.baseUrl, { email: 'tools-list@example.com' })).client;
    const key = (await admin.ok('POST', '/app/api/api-keys', { name: 'mcp' })).value;
    mcp = await connectMcp(app.baseUrl, key);
    // The SDK client compiles every outputSchema with its Ajv here: a `$ref` it could not resolve throws.
    tools = (await mcp.client.listTools()).tools;
  });
  afterAll(async () => {
    await mcp?.client.close();
    await app?.close();
  });

  it('says uuid and date-time by format, keeps inputs free of $ref, and defines what outputs share', () => {
    for (const tool of tools) {
      for (const [path, schema] of [
        ...subschemas(tool.inputSchema as Schema, tool.name),
        ...subschemas((tool.outputSchema ?? {}) as Schema, `${tool.name}>`),
      ]) {
        expect({ path, pattern: schema.format ? schema.pattern : undefined }).toEqual({
          path,
          pattern: undefined,
        });
      }
      // Several clients cannot resolve a $ref in an inputSchema and drop the tool.
      expect(JSON.stringify(tool.inputSchema)).not.toMatch(/"\$ref"|"\$defs"/);
      const refs = JSON.stringify(tool.outputSchema ?? {}).match(/"\$ref":"[^"]*"/g) ?? [];
      const defined = Object.keys((tool.outputSchema as Schema | undefined)?.definitions ?? {});
      expect(
        refs
          .map((ref) => ref.slice('"$ref":"#/definitions/'.length, -1))
          .filter((name) => !defined.includes(name)),
      ).toEqual([]);
    }
    const manage = tools.find((tool) => tool.name === 'manage_webhooks')!.outputSchema as Schema;
    expect(Object.keys(manage.definitions)).toEqual(expect.arrayContaining(['Webhook', 'Delivery']));
    expect(manage.anyOf).toContainEqual({ $ref: '#/definitions/Webhook' });
  });
});
