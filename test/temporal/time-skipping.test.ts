import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';
import {
  DeliveryIdKey,
  SEARCH_ATTRIBUTE_KEYS,
  WorkspaceIdKey,
} from '../../src/shared/temporal/search-attributes';
import { sleepThenCall } from '../fixtures/workflows/sleep-then-call';
import { createTimeSkippingEnv } from '../helpers/temporal';

describe('Temporal wiring on the time-skipping test server', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    await ensureSearchAttributes(env.connection, env.namespace ?? 'default');
  });

  afterAll(async () => {
    await env?.teardown();
  });

  it('runs a workflow that sleeps one hour and then calls an activity, without waiting an hour', async () => {
    const calls: { label: string; sleptMs: number }[] = [];
    const taskQueue = `tq-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace,
      taskQueue,
      workflowsPath: require.resolve('../fixtures/workflows/sleep-then-call'),
      activities: {
        recordWake: async (input: { label: string; sleptMs: number }) => {
          calls.push(input);
          return `woke ${input.label}`;
        },
      },
    });

    const workflowId = `sleep-${randomUUID()}`;
    const result = await worker.runUntil(
      env.client.workflow.execute(sleepThenCall, {
        taskQueue,
        workflowId,
        args: ['first'],
        typedSearchAttributes: [{ key: WorkspaceIdKey, value: 'ws-1' }],
      }),
    );

    expect(result.sleptMs).toBeGreaterThanOrEqual(60 * 60 * 1000);
    expect(result.activityResult).toBe('woke first');
    expect(calls).toEqual([{ label: 'first', sleptMs: result.sleptMs }]);

    const description = await env.client.workflow.getHandle(workflowId).describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.typedSearchAttributes.get(WorkspaceIdKey)).toBe('ws-1');
    expect(description.typedSearchAttributes.get(DeliveryIdKey)).toBe('after-first');
  });

  it('can register the search attributes again without failing (idempotent start-up)', async () => {
    await expect(ensureSearchAttributes(env.connection, env.namespace ?? 'default')).resolves.toHaveLength(
      SEARCH_ATTRIBUTE_KEYS.length,
    );
  });
});
