import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { AttemptOutcome } from '../../src/deliveries/engine/delivery-attempts';
import { temporalBinaries } from '../../src/temporal/binaries';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';

let runtimeInstalled = false;

/**
 * The real time-skipping test server: the wrapper that `npm run setup` built from Maven Central
 * (or TEMPORAL_TEST_SERVER), else the SDK's own download.
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  const path = temporalBinaries().testServer;
  const start = () =>
    TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: path ? { type: 'existing-path', path } : { type: 'cached-download' } },
    });
  try {
    return await start();
  } catch (error) {
    // The SDK gives the server's JVM a fixed 5 s to answer; with test files side by side on a busy
    // machine it can take longer. A second start is a fresh server on a fresh port.
    if (!/did not start within/.test(String(error))) throw error;
    return start();
  }
}

/** The time-skipping server with the delivery workflows' search attributes registered, as they need. */
export async function createDeliveryTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const env = await createTimeSkippingEnv();
  await ensureSearchAttributes(env.connection, env.namespace ?? 'default');
  return env;
}

/** What an attempt activity answers, for delivery workflows run with scripted attempts. */
export const ATTEMPT_OUTCOMES = {
  /** Failed, retried (503). */
  retry: { done: false, status: 'failed', statusCode: 503, responseMessage: 'Busy' },
  delivered: { done: true, status: 'delivered', statusCode: 200, responseMessage: 'OK' },
  /** Failed for good (404). */
  refused: { done: true, status: 'failed', statusCode: 404, responseMessage: 'Not Found' },
} as const satisfies Record<string, AttemptOutcome>;

/**
 * One delivery attempt (or a fast-lane attempt handed to the slow lane) as the workflow's history
 * records it: a local activity's marker, or a regular activity's completion.
 */
export interface RecordedAttempt {
  activityType: string;
  /** The attempt's outcome, when it returned one. */
  result?: unknown;
  /** The failure's type, when it threw. */
  failureType?: string | null;
}

/**
 * The attempts a history holds, in order, read as the Temporal Web UI reads them: each local
 * activity is a `core_local_activity` marker whose details carry its type and its result (or its
 * failure); a regular activity (the slow lane) is its scheduled event's type and its completion.
 */
export function attemptsInHistory(history: temporal.api.history.v1.IHistory): RecordedAttempt[] {
  const events = history.events ?? [];
  const scheduledType = new Map(
    events
      .filter((event) => event.activityTaskScheduledEventAttributes)
      .map((event) => [
        String(event.eventId),
        event.activityTaskScheduledEventAttributes!.activityType!.name!,
      ]),
  );
  return events.flatMap((event): RecordedAttempt[] => {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName === 'core_local_activity') {
      const details = marker.details ?? {};
      const data = defaultPayloadConverter.fromPayload<{ activity_type: string }>(
        details.data!.payloads![0]!,
      );
      const result = details.result?.payloads?.[0];
      return [
        {
          activityType: data.activity_type,
          ...(result ? { result: defaultPayloadConverter.fromPayload(result) } : {}),
          ...(marker.failure ? { failureType: marker.failure.applicationFailureInfo?.type } : {}),
        },
      ];
    }
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed) {
      const result = completed.result?.payloads?.[0];
      return [
        {
          activityType: scheduledType.get(String(completed.scheduledEventId)) ?? 'unknown',
          ...(result ? { result: defaultPayloadConverter.fromPayload(result) } : {}),
        },
      ];
    }
    const failed = event.activityTaskFailedEventAttributes;
    if (failed) {
      return [
        {
          activityType: scheduledType.get(String(failed.scheduledEventId)) ?? 'unknown',
          failureType: failed.failure?.applicationFailureInfo?.type,
        },
      ];
    }
    return [];
  });
}

/**
 * The most activities of `activityType` in flight at once in a history: scheduled and not closed
 * yet (a batch's resend steps, say, to tell one after another from several at once).
 */
export function mostInFlight(history: temporal.api.history.v1.IHistory, activityType: string): number {
  const open = new Set<string>();
  let most = 0;
  for (const event of history.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name === activityType) open.add(String(event.eventId));
    const closed =
      event.activityTaskCompletedEventAttributes ??
      event.activityTaskFailedEventAttributes ??
      event.activityTaskTimedOutEventAttributes ??
      event.activityTaskCanceledEventAttributes;
    if (closed) open.delete(String(closed.scheduledEventId));
    most = Math.max(most, open.size);
  }
  return most;
}

/** The ids of the `patched()` markers a history holds, in order. */
export function patchesInHistory(history: temporal.api.history.v1.IHistory): string[] {
  return (history.events ?? []).flatMap((event) =>
    (event.markerRecordedEventAttributes?.details?.['patch-data']?.payloads ?? []).map(
      (payload) => defaultPayloadConverter.fromPayload<{ id: string }>(payload).id,
    ),
  );
}
