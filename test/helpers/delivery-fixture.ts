import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Delivery } from '../../src/deliveries/store/delivery.entity';
import { DELIVERY_FAILED, deliveryWorkflowId } from '../../workflows/delivery.workflow';
import { startTestApp, type TestApp } from './test-app';
import { addMemberByInvitation, WebClient } from './web-client';

export interface DeliveryFixture {
  app: TestApp;
  admin: WebClient;
  key: string;
  userId: string;
  deal: { id: string; fields: { id: string; name: string }[] };
  field: (name: string) => string;
  api: (method: string, path: string, body?: unknown, key?: string) => Promise<{ status: number; body: any }>;
  webhook: (url: string, extra?: Record<string, unknown>) => Promise<any>;
  createDeal: (name: string, values?: Record<string, unknown>) => Promise<any>;
  /** Waits until `count` deliveries exist for the webhook and returns them, oldest first. */
  deliveriesOf: (webhookId: string, count?: number) => Promise<Delivery[]>;
  /** Waits for the delivery's workflow to end (time skipping runs its timers at once). */
  finish: (deliveryId: string) => Promise<{ status: string; attempts: number }>;
  /** An API key of a new member whose role is the built-in `role` (e.g. Viewer, Member). */
  keyWithRole: (email: string, role: string) => Promise<string>;
  close: () => Promise<void>;
}

/** The app with a worker, an Admin with an API key, and the built-in deal type. */
export async function deliveryFixture(
  overrides: Record<string, string> = {},
  options: { temporalAddress?: string; topology?: boolean } = {},
): Promise<DeliveryFixture> {
  const app = await startTestApp(overrides, { worker: true, ...options });
  const signedUp = await WebClient.signUp(app.baseUrl, { email: 'deliveries@example.com' });
  const key = (await signedUp.client.ok('POST', '/app/api/api-keys', { name: 'deliveries' })).value as string;
  const api = async (method: string, path: string, body?: unknown, withKey = key) => {
    const response = await fetch(`${app.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': withKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const model = (await api('POST', '/model/read', { type: 'deal' })).body;
  const deal = model.type;
  const field = (name: string) => deal.fields.find((f: { name: string }) => f.name === name)!.id as string;
  return {
    app,
    admin: signedUp.client,
    key,
    userId: signedUp.session.user.id,
    deal,
    field,
    api,
    webhook: async (url, extra = {}) => {
      const created = await api('POST', '/webhooks', {
        url,
        events: ['record.created', 'record.updated'],
        ...extra,
      });
      if (created.status !== 201) throw new Error(`webhook: ${JSON.stringify(created.body)}`);
      return created.body;
    },
    createDeal: async (name, values = {}) => {
      const created = await api('POST', '/records/deal', { values: { [field('Name')]: name, ...values } });
      if (created.status !== 201) throw new Error(`record: ${JSON.stringify(created.body)}`);
      return created.body;
    },
    deliveriesOf: async (webhookId, count = 1) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const rows = await app.dataSource.manager.find(Delivery, {
          where: { webhookId },
          order: { createdAt: 'ASC' },
        });
        if (rows.length >= count) return rows;
        if (Date.now() > deadline)
          throw new Error(`only ${rows.length} of ${count} deliveries for ${webhookId}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    finish: async (deliveryId) => {
      const deadline = Date.now() + 15_000;
      while (
        !(await app.dataSource.manager.findOneByOrFail(Delivery, { id: deliveryId })).workflowStartedAt
      ) {
        if (Date.now() > deadline) throw new Error(`the workflow of ${deliveryId} never started`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // A delivery that failed for good ends its workflow Failed, carrying the same result as details.
      try {
        return await app.env.client.workflow.getHandle(deliveryWorkflowId(deliveryId)).result();
      } catch (error) {
        const cause = error instanceof WorkflowFailedError ? error.cause : undefined;
        if (cause instanceof ApplicationFailure && cause.type === DELIVERY_FAILED) {
          return cause.details![0] as { status: string; attempts: number };
        }
        throw error;
      }
    },
    keyWithRole: async (email, role) => {
      const roles = (await signedUp.client.ok('GET', '/app/api/roles')).data;
      const byName = (name: string) => roles.find((r: { name: string }) => r.name === name).id;
      const { client, userId } = await addMemberByInvitation(app.baseUrl, signedUp.client, {
        email,
        roleId: byName(role),
      });
      // A key is made with Create on API & Webhooks; the role is then the one asked for.
      await signedUp.client.ok('PATCH', `/app/api/members/${userId}`, { roleId: byName('Member') });
      const key = (await client.ok('POST', '/app/api/api-keys', { name: 'k' })).value as string;
      await signedUp.client.ok('PATCH', `/app/api/members/${userId}`, { roleId: byName(role) });
      return key;
    },
    close: () => app.close(),
  };
}
