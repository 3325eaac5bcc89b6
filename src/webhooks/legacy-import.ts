import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';
import { AppError, ValidationError } from '../shared/app-error';
import { issuesFromZod } from '../errors/zod-issues';
import { Member } from '../identity/member.entity';
import { activeAdminsQuery } from '../identity/members.service';
import { User } from '../identity/user.entity';
import type { SecretBox } from '../security/secret-box';
import { isRetiredEvent, WEBHOOK_EVENTS } from '../shared/events/event-catalog';
import { recordSourceSchema } from './record-source-schemas';
import { validateWebhookHeaders } from '../shared/webhooks/webhook-headers';
import { normalizeWebhookUrl } from '../shared/webhooks/webhook-url';
import { WebhooksRepository } from './webhooks.repository';

const KNOWN_EVENTS = new Set<string>(WEBHOOK_EVENTS);
const time = z.iso.datetime({ offset: true });

/** The import file: older webhooks and their delivery records (docs/messaging.md). */
export const legacyImportFile = z.strictObject({
  webhooks: z
    .array(
      z.strictObject({
        url: z.string().max(4096),
        description: z.string().max(500).nullable().optional(),
        events: z
          .array(z.string())
          .min(1)
          .refine((events) => events.every((e) => KNOWN_EVENTS.has(e) || isRetiredEvent(e)), {
            error: 'Every event must be in the catalog or a retired type-specific event.',
            params: { customCode: 'webhookEventUnknown' },
          }),
        enabled: z.boolean().optional(),
        secret: z.string().min(1).max(256).nullable().optional(),
        headers: z.record(z.string(), z.string()).nullable().optional(),
        // Older webhooks can keep several record sources (docs/api.md#rest-endpoints: list columns).
        recordSources: z.array(recordSourceSchema).max(50).nullable().optional(),
        recordOwnerEmail: z.email().optional(),
        createdAt: time.optional(),
        deliveries: z
          .array(
            z.strictObject({
              event: z.string().min(1).max(100),
              status: z.enum(['delivered', 'failed']),
              statusCode: z.number().int().min(100).max(599).nullable(),
              responseMessage: z.string().max(2000).nullable().optional(),
              createdAt: time,
              payload: z.record(z.string(), z.unknown()),
            }),
          )
          .max(100_000)
          .optional(),
      }),
    )
    .min(1),
});
export type LegacyImportFile = z.infer<typeof legacyImportFile>;

/** A delivery record of the import, as the deliveries feature stores it. */
export interface ImportedDelivery {
  webhookId: string;
  eventId: string;
  event: string;
  url: string;
  sourcesVersion: number;
  status: string;
  statusCode: number | null;
  responseMessage: string | null;
  createdAt: Date;
}

/**
 * Where imported delivery records go, inside the import's transaction: the deliveries feature owns
 * the table (src/deliveries/store/), and sits above webhooks, so the composition root hands the
 * import this port.
 */
export type ImportedDeliveries = (
  manager: EntityManager,
) => (workspaceId: string, delivery: ImportedDelivery) => Promise<void>;

/**
 * Brings older webhooks (retired events and several record sources allowed) and their delivery
 * records into a workspace, in one transaction. Imported deliveries keep their outcome and their
 * payload as sent; they are never sent again, and those of retired events cannot be resent.
 */
export async function importLegacyWebhooks(
  dataSource: DataSource,
  box: SecretBox,
  importedDeliveries: ImportedDeliveries,
  workspaceId: string,
  file: unknown,
): Promise<{ webhooks: number; deliveries: number }> {
  const parsed = legacyImportFile.safeParse(file);
  if (!parsed.success) throw new AppError('validation', issuesFromZod(parsed.error));
  return dataSource.transaction(async (manager) => {
    const webhooks = new WebhooksRepository(manager, box);
    const recordDelivery = importedDeliveries(manager);
    const admin = await activeAdminsQuery(manager, workspaceId).orderBy('m.created_at', 'ASC').getOne();
    let deliveries = 0;
    for (const [index, entry] of parsed.data.webhooks.entries()) {
      const at = (field: string) => ['webhooks', index, field];
      let url: string;
      try {
        url = normalizeWebhookUrl(entry.url);
        if (entry.headers) validateWebhookHeaders(entry.headers);
      } catch (error) {
        if (error instanceof AppError) {
          throw new AppError(
            'validation',
            error.issues.map((issue) => ({ ...issue, path: ['webhooks', index, ...issue.path] })),
          );
        }
        throw error;
      }
      let ownerId = admin?.userId ?? null;
      if (entry.recordOwnerEmail) {
        const owner = await manager.findOneBy(User, { email: entry.recordOwnerEmail.toLowerCase() });
        if (!owner || !(await manager.existsBy(Member, { workspaceId, userId: owner.id }))) {
          throw ValidationError.of(
            `${entry.recordOwnerEmail} is not a member of the workspace.`,
            'webhookOwnerNotMember',
            at('recordOwnerEmail'),
          );
        }
        ownerId = owner.id;
      }
      const created = entry.createdAt ? new Date(entry.createdAt) : new Date();
      const headers = entry.headers && Object.keys(entry.headers).length ? entry.headers : null;
      const webhook = webhooks.create(workspaceId, {
        url,
        description: entry.description ?? null,
        events: [...new Set(entry.events)],
        enabled: entry.enabled ?? true,
        bodyTemplate: null,
        recordTrigger: null,
        recordSources: entry.recordSources ?? null,
        recordOwnerUserId: ownerId,
        schemaRevision: null,
        sourcesVersion: 1,
        createdBy: null,
        createdAt: created,
      });
      webhooks.setSecret(webhook, entry.secret || null);
      webhooks.setHeaders(webhook, headers);
      await webhooks.save(workspaceId, webhook);
      for (const delivery of entry.deliveries ?? []) {
        const eventId = randomUUID();
        const createdAt = new Date(delivery.createdAt);
        await manager.query(
          `INSERT INTO stored_events (id, workspace_id, kind, event, occurred_at, data, dispatched_at) VALUES ($1, $2, 'legacy', $3, $4, $5, now())`,
          [eventId, workspaceId, delivery.event, createdAt, JSON.stringify(delivery.payload)],
        );
        await recordDelivery(workspaceId, {
          webhookId: webhook.id,
          eventId,
          event: delivery.event,
          url,
          sourcesVersion: webhook.sourcesVersion,
          status: delivery.status,
          statusCode: delivery.statusCode,
          responseMessage: delivery.responseMessage ?? null,
          createdAt,
        });
        deliveries += 1;
      }
    }
    return { webhooks: parsed.data.webhooks.length, deliveries };
  });
}
