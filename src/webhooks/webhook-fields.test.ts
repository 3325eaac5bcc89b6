import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_FIELD_OWNERSHIP } from '../shared/webhooks/webhook-fields';
import { webhookViewSchema } from './webhook-view';
import { createWebhookBody } from './webhooks.schemas';

/** The fields docs/api.md says a `Webhook` is: "A `Webhook` is `{ id, url, … }`". */
function documentedWebhookFields(): string[] {
  const docs = readFileSync(join(__dirname, '../../docs/api.md'), 'utf8');
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
});
