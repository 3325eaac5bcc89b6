import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  TEXT_FIELD_NAMES,
  textTooLongCode,
  WEBHOOK_FIELD_OWNERSHIP,
} from '../shared/webhooks/webhook-fields';
import { getMetadataArgsStorage } from 'typeorm';
import { Webhook } from './webhook.entity';
import { webhookViewSchema } from './webhook-view';
import { createWebhookBody } from './webhooks.schemas';

const docs = readFileSync(join(__dirname, '../../docs/api.md'), 'utf8');

/** The fields docs/api.md says a `Webhook` is: "A `Webhook` is `{ id, url, … }`". */
function documentedWebhookFields(): string[] {
  const line = /A `Webhook` is `\{([^}]*)\}`/.exec(docs);
  if (!line) throw new Error('docs/api.md has no "A `Webhook` is `{ … }`" line');
  return line[1]!.split(',').map((field) => field.trim());
}

/** Issue 35, item 1: a field of the webhook cannot be left unclassified or undocumented. */
describe('the webhook fields', () => {
  it('classifies every field of the request schema for ownership (src/shared/webhooks/webhook-fields.ts)', () => {
    const requestFields = Object.keys(createWebhookBody.shape);
    const classified = Object.keys(WEBHOOK_FIELD_OWNERSHIP);
    expect({ notClassified: requestFields.filter((field) => !classified.includes(field)) }).toEqual({
      notClassified: [],
    });
    expect({ notInTheSchema: classified.filter((field) => !requestFields.includes(field)) }).toEqual({
      notInTheSchema: [],
    });
  });

  it("names every field of the view in docs/api.md's `Webhook` line, and no other", () => {
    const viewFields = Object.keys(webhookViewSchema.shape);
    const documented = documentedWebhookFields();
    expect({ missingFromDocsApiMd: viewFields.filter((field) => !documented.includes(field)) }).toEqual({
      missingFromDocsApiMd: [],
    });
    expect({ notInTheView: documented.filter((field) => !viewFields.includes(field)) }).toEqual({
      notInTheView: [],
    });
  });

  it("documents each text field's refusal in docs/api.md's customCode tables", () => {
    expect({
      undocumentedCodes: TEXT_FIELD_NAMES.map(textTooLongCode).filter(
        (code) => !docs.includes(`| \`${code}\` | 400 |`),
      ),
    }).toEqual({ undocumentedCodes: [] });
  });

  it('gives every column of the entity to a field of the request or the view, or says why not', () => {
    const fields = new Set([
      ...Object.keys(createWebhookBody.shape),
      ...Object.keys(webhookViewSchema.shape),
    ]);
    const columns = getMetadataArgsStorage()
      .columns.filter((column) => column.target === Webhook)
      .map((column) => column.propertyName);
    expect({
      columnsOfNoField: columns.filter((column) => !fields.has(column) && !(column in INTERNAL_COLUMNS)),
    }).toEqual({
      columnsOfNoField: [],
    });
  });
});

/** The entity's columns that are no field of the request or view, each with why. */
const INTERNAL_COLUMNS: Record<string, string> = {
  workspaceId: 'the tenant: every lookup is scoped by it',
  secretSealed: 'the secret, sealed: the view says hasSecret',
  previousSecretSealed: 'a rotated secret, sealed, never returned',
  headersSealed: 'the header values, sealed: the view says headerNames',
  schemaRevision: 'the request and view call it expectedSchemaRevision',
  sourcesVersion: 'raised when the record settings change; a record resend checks it',
  createdBy: 'who created it, for the record',
  listenerUntil: 'set only on a `listen` session, which is no webhook of the list (docs/listen.md)',
};
