import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { importedDeliveries } from '../../src/deliveries/store';
import { SecretBox } from '../../src/security/secret-box';
import { importLegacyWebhooks } from '../../src/webhooks/legacy-import';

/**
 * Imports one older webhook into a workspace as `npm run cli -- import-legacy-webhooks` does
 * (docs/messaging.md): its events (catalog or retired names) and one delivery record per name of
 * `deliveredEvents`, delivered with 200 in 2024.
 */
export function importLegacyWebhook(
  dataSource: DataSource,
  workspaceId: string,
  webhook: { url: string; events: string[]; deliveredEvents?: string[] },
  encryptionKey = randomBytes(32).toString('hex'),
) {
  const deliveries = (webhook.deliveredEvents ?? []).map((event) => ({
    event,
    status: 'delivered',
    statusCode: 200,
    createdAt: '2024-05-02T10:00:00Z',
    payload: { event },
  }));
  return importLegacyWebhooks(dataSource, new SecretBox(encryptionKey), importedDeliveries, workspaceId, {
    webhooks: [{ url: webhook.url, events: webhook.events, deliveries }],
  });
}
