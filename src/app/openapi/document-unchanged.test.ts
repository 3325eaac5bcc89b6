import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../../http/openapi/canonical-json';
import { buildOpenApiDocument } from './document';

// The REST contract as published: any change to a path, schema, example or refusal shows up here as
// a diff. When the change is intended, rewrite the fixture with UPDATE_OPENAPI_SNAPSHOT=1 and
// review the diff in the commit.
const fixture = path.join(__dirname, '../../../test/fixtures/openapi/openapi.json');

test('the OpenAPI document is the published one (key order aside)', () => {
  const current = canonicalJson(buildOpenApiDocument());
  if (process.env.UPDATE_OPENAPI_SNAPSHOT === '1') writeFileSync(fixture, current);
  expect(current).toBe(readFileSync(fixture, 'utf8'));
});
