import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildOpenApiDocument } from './document';

// The document checked by an independent OpenAPI validator (@seriousme/openapi-schema-validator,
// the JSON Schemas of the OpenAPI Initiative for 3.0–3.2), run as its users run it: its CLI.
const cli = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');

function validate(document: unknown): { valid: boolean; errors?: unknown } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const run = spawnSync(process.execPath, [cli, file], { encoding: 'utf8' });
  return JSON.parse(run.stdout) as { valid: boolean; errors?: unknown };
}

test('the OpenAPI 3.1 document validates with zero errors', () => {
  expect(validate(buildOpenApiDocument())).toEqual({ valid: true });
});

test('the validator does find errors (a document without info, a response without description)', () => {
  const broken = structuredClone(buildOpenApiDocument()) as unknown as Record<string, any>;
  delete broken.info;
  expect(validate(broken).valid).toBe(false);
  const noDescription = structuredClone(buildOpenApiDocument()) as unknown as Record<string, any>;
  const firstPath = Object.values(noDescription.paths)[0] as Record<string, any>;
  const firstOperation = Object.values(firstPath)[0] as {
    responses: Record<string, { description?: string }>;
  };
  delete Object.values(firstOperation.responses)[0]!.description;
  expect(validate(noDescription).valid).toBe(false);
});
