import { ApiKeyAuthenticator } from '../../src/api-keys/api-key-auth';
import { OAuthTokenAuthenticator } from '../../src/oauth/oauth-token-auth';
import { randomBytes, randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { loadConfig } from '../../src/config';
import { signUp } from '../../src/identity/sign-in/accounts.service';
import { identityHooks } from '../../src/app/services';
import { loadActor, type Actor } from '../../src/identity/actor';
import { createLogger } from '../../src/logger';
import { DeliveriesService } from '../../src/deliveries/log/deliveries.service';
import { HttpSender } from '../../src/deliveries/engine/http-sender';
import { ResendBatchSteps } from '../../src/deliveries/resend/resend-batch-steps';
import { SecretBox } from '../../src/security/secret-box';
import { CrmRecord } from '../../src/records/crm-record.entity';
import { loadModel } from '../../src/record-model/model.service';
import { RecordEvent } from '../../src/records/record-event.entity';
import { RecordsService } from '../../src/records/records.service';
import { TemporalTrashTimer } from '../../src/records/trash/trash-timer';
import { TrashService } from '../../src/records/trash/trash.service';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';
import { recordErasureWorkflowId } from '../../workflows/record-erasure.workflow';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { createTimeSkippingEnv } from '../helpers/temporal';
import { testWorkflowBundle } from '../helpers/workflow-bundle';
import { tracingSinks } from '../../src/temporal/tracing';

/**
 * docs/events.md#record-events: a trashed record is erased 30 days after trashing (emitting
 * record.deletedPermanently, scrubbing its earlier events); restoring it cancels that.
 * The real workflow and activities on the time-skipping test server.
 */
/** The batch steps recheck a connection without the authorization server. */
const noOAuthServer = (): never => {
  throw new Error('no OAuth server in this test');
};

describe('trash retention timer (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  let db: TestDatabase;
  let records: RecordsService;
  let trash: TrashService;
  let worker: Worker;
  let running: Promise<void>;
  let actor: Actor;
  let nameField: string;
  const cause = { kind: 'web' } as const;

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    await ensureSearchAttributes(env.connection, env.namespace ?? 'default');
    db = await createTestDatabase();
    const logger = createLogger('silent');
    const taskQueue = `erasure-${randomUUID()}`;
    records = new RecordsService(db.dataSource);
    trash = new TrashService(db.dataSource, new TemporalTrashTimer(env.client, taskQueue), logger);
    worker = await Worker.create({
      sinks: tracingSinks(),
      connection: env.nativeConnection,
      namespace: env.namespace,
      taskQueue,
      workflowBundle: await testWorkflowBundle(),
      activities: createActivities({
        config: loadConfig({}),
        logger,
        dataSource: db.dataSource,
        trash,
        box: new SecretBox(randomBytes(32).toString('hex')),
        sender: new HttpSender(),
        // No resends here: a starter that is never called.
        resendSteps: new ResendBatchSteps(
          db.dataSource,
          new DeliveriesService(db.dataSource, { startResend: async () => undefined }, () => null, logger),
          new ApiKeyAuthenticator(db.dataSource, { DEPLOYMENT: 'self-hosted' }),
          new OAuthTokenAuthenticator(noOAuthServer, db.dataSource, {
            DEPLOYMENT: 'self-hosted',
            PUBLIC_URL: 'http://127.0.0.1',
          }),
        ),
      }),
    });
    // One worker for the whole file: a Worker runs once.
    running = worker.run();
    const { user, workspace } = await signUp(
      db.dataSource,
      {
        name: 'Tess',
        email: 'tess@example.com',
        password: 'plum kettle orbit 42',
        workspaceName: 'Trash Co',
      },
      identityHooks,
    );
    actor = (await loadActor(db.dataSource.manager, workspace.id, user.id))!;
    const contact = (await loadModel(db.dataSource.manager, workspace.id)).types.find(
      (t) => t.builtin === 'contact',
    )!;
    nameField = contact.fields.find((f) => f.name === 'Name')!.id;
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await db?.drop();
    await env?.teardown();
  });

  const newContact = async (name: string) => {
    const created = await records.create(actor, cause, 'contact', { values: { [nameField]: name } });
    await records.update(
      actor,
      cause,
      { typeRef: 'contact', recordId: created.id },
      { values: { [nameField]: `${name} Jr` } },
    );
    return created.id;
  };

  it('erases a record 30 days after it was trashed and scrubs its earlier events', async () => {
    const recordId = await newContact('Erin');
    const trashed = await trash.trash(actor, cause, { typeRef: 'contact', recordId });
    const handle = env.client.workflow.getHandle(recordErasureWorkflowId(recordId, trashed.version));

    const before = await env.currentTimeMs();
    expect(await handle.result()).toBe('erased');
    expect((await env.currentTimeMs()) - before).toBeGreaterThanOrEqual(30 * 24 * 60 * 60 * 1000);

    const record = await db.dataSource.manager.findOneByOrFail(CrmRecord, { id: recordId });
    expect(record).toMatchObject({ status: 'erased', values: {} });
    const events = await db.dataSource.manager.find(RecordEvent, {
      where: { recordId },
      order: { occurredAt: 'ASC' },
    });
    expect(events.map((e) => e.event)).toEqual([
      'record.created',
      'record.updated',
      'record.deleted',
      'record.deletedPermanently',
    ]);
    const erasure = events.at(-1)!;
    expect(erasure.actorId).toBeNull();
    expect(erasure.data).toMatchObject({ cause: { kind: 'retention' }, record: { ref: { recordId } } });
    for (const earlier of events.slice(0, 3)) {
      expect(JSON.stringify(earlier.data)).not.toContain('Erin');
      expect(earlier.actorId).toBe(actor.user.id); // who and when stay
    }
  });

  it('keeps a record restored on day 29 alive on day 31', async () => {
    const recordId = await newContact('Rita');
    const trashed = await trash.trash(actor, cause, { typeRef: 'contact', recordId });
    const handle = env.client.workflow.getHandle(recordErasureWorkflowId(recordId, trashed.version));

    await env.sleep('29 days');
    expect((await db.dataSource.manager.findOneByOrFail(CrmRecord, { id: recordId })).status).toBe('trashed');
    await trash.restore(actor, cause, { typeRef: 'contact', recordId });
    await env.sleep('2 days');

    const record = await db.dataSource.manager.findOneByOrFail(CrmRecord, { id: recordId });
    expect(record.status).toBe('active');
    expect(record.values[nameField]).toBe('Rita Jr');
    expect((await handle.describe()).status.name).toBe('CANCELLED');
    const events = await db.dataSource.manager.find(RecordEvent, { where: { recordId } });
    expect(events.map((e) => e.event)).not.toContain('record.deletedPermanently');
  });

  /** An organization and contacts linked to it: one stays active, one is in the Trash. */
  async function linkedToOrganization(name: string) {
    const model = await loadModel(db.dataSource.manager, actor.workspace.id);
    const organization = model.types.find((t) => t.builtin === 'organization')!;
    const orgName = organization.fields.find((f) => f.name === 'Name')!.id;
    const orgLink = model.types
      .find((t) => t.builtin === 'contact')!
      .fields.find((f) => f.name === 'Organization')!.id;
    const org = await records.create(actor, cause, 'organization', { values: { [orgName]: name } });
    const contact = await records.create(actor, cause, 'contact', {
      values: { [nameField]: `${name} contact` },
      links: { [orgLink]: [org.id] },
    });
    const trashedContact = await records.create(actor, cause, 'contact', {
      values: { [nameField]: `${name} trashed contact` },
      links: { [orgLink]: [org.id] },
    });
    // In the Trash without a timer, so skipping 30 days for the organization cannot erase it.
    await db.dataSource.query(
      `UPDATE records SET status = 'trashed', trashed_at = now(), version = version + 1 WHERE id = $1`,
      [trashedContact.id],
    );
    await trash.trash(actor, cause, { typeRef: 'organization', recordId: org.id });
    return {
      org,
      contact,
      trashedContact: { ...trashedContact, version: trashedContact.version + 1 },
      orgLink,
    };
  }

  /** What an erasure must have told about the linked contacts (issue 10, hole 9). */
  async function expectLinkRemovalEvents(
    linked: Awaited<ReturnType<typeof linkedToOrganization>>,
    expected: { actorId: string | null; cause: unknown },
  ) {
    const manager = db.dataSource.manager;
    const [erasure] = await manager.findBy(RecordEvent, {
      recordId: linked.org.id,
      event: 'record.deletedPermanently',
    });
    expect(erasure).toBeDefined();
    const contactEvents = await manager.find(RecordEvent, {
      where: { recordId: linked.contact.id },
      order: { occurredAt: 'ASC' },
    });
    const update = contactEvents.at(-1)!;
    expect(update).toMatchObject({
      event: 'record.updated',
      causeId: erasure!.causeId,
      actorId: expected.actorId,
    });
    expect(update.data).toMatchObject({
      causeId: erasure!.causeId,
      cause: expected.cause,
      record: {
        ref: { recordId: linked.contact.id },
        beforeVersion: linked.contact.version,
        afterVersion: linked.contact.version + 1,
        fields: [],
        links: [
          {
            fieldId: linked.orgLink,
            change: 'removed',
            // The erased record keeps its ref, never its name.
            record: { ref: { recordId: linked.org.id }, display: null },
          },
        ],
      },
    });
    const contact = await manager.findOneByOrFail(CrmRecord, { id: linked.contact.id });
    expect(contact.version).toBe(linked.contact.version + 1);
    const read = await records.get(actor, { typeRef: 'contact', recordId: linked.contact.id });
    expect(read.links[linked.orgLink]).toEqual([]);
    expect(read.version).toBe(linked.contact.version + 1);

    // A contact in the Trash loses the link without an event or a new version: a version
    // change would stop its own erasure timer; its record.restored reports what it has then.
    const trashed = await manager.findOneByOrFail(CrmRecord, { id: linked.trashedContact.id });
    expect(trashed.version).toBe(linked.trashedContact.version);
    const trashedEvents = await manager.findBy(RecordEvent, { recordId: linked.trashedContact.id });
    expect(trashedEvents.map((e) => e.event)).toEqual(['record.created']);
  }

  it('tells each record that loses a link to a record erased by hand, with the erasure’s causeId', async () => {
    const linked = await linkedToOrganization('Hand Org');
    await trash.deletePermanently(actor, cause, { typeRef: 'organization', recordId: linked.org.id });
    await expectLinkRemovalEvents(linked, { actorId: actor.user.id, cause });
  });

  it('tells each record that loses a link to a record erased by its 30-day timer', async () => {
    const linked = await linkedToOrganization('Timer Org');
    const trashedOrg = await db.dataSource.manager.findOneByOrFail(CrmRecord, { id: linked.org.id });
    const handle = env.client.workflow.getHandle(recordErasureWorkflowId(linked.org.id, trashedOrg.version));
    expect(await handle.result()).toBe('erased');
    await expectLinkRemovalEvents(linked, { actorId: null, cause: { kind: 'retention' } });
  });

  it('the retention sweep erases trash whose timer never started, and nothing else', async () => {
    const recordId = await newContact('Sweepy');
    await db.dataSource.query(
      `UPDATE records SET status = 'trashed', trashed_at = now() - interval '31 days', version = version + 1 WHERE id = $1`,
      [recordId],
    );
    const fresh = await newContact('Fresh');
    await trash.trash(actor, cause, { typeRef: 'contact', recordId: fresh });
    expect(await trash.eraseExpiredTrash()).toBe(1);
    expect((await db.dataSource.manager.findOneByOrFail(CrmRecord, { id: recordId })).status).toBe('erased');
    expect((await db.dataSource.manager.findOneByOrFail(CrmRecord, { id: fresh })).status).toBe('trashed');
  });
});
