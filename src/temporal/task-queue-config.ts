import { status as grpcStatus } from '@grpc/grpc-js';
import { temporal } from '@temporalio/proto';
import type { Logger } from '../logger';
import type { TemporalConnection } from './client';

/**
 * Sets the slow lane's dispatch rates on the Temporal server: attempts per second in all, and per
 * fairness key (per workspace). The server keeps them with the task queue and enforces them for
 * every worker, so each worker sets the same values at start. A server without task queue
 * configuration (older than 1.29) keeps dispatching without them; the lane still has its slots.
 */
export async function configureSlowLane(
  connection: TemporalConnection,
  namespace: string,
  taskQueue: string,
  rates: { slowRate: number; slowRatePerWorkspace: number },
  logger: Logger,
): Promise<void> {
  try {
    await connection.workflowService.updateTaskQueueConfig({
      namespace,
      taskQueue,
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      identity: `crm-webhooks worker ${process.pid}`,
      updateQueueRateLimit: {
        rateLimit: { requestsPerSecond: rates.slowRate },
        reason: 'DELIVERY_SLOW_LANE_RATE',
      },
      updateFairnessKeyRateLimitDefault: {
        rateLimit: { requestsPerSecond: rates.slowRatePerWorkspace },
        reason: 'DELIVERY_SLOW_LANE_RATE_PER_WORKSPACE',
      },
    });
  } catch (error) {
    const code = (error as { code?: number }).code;
    if (code !== grpcStatus.UNIMPLEMENTED && code !== grpcStatus.INVALID_ARGUMENT) throw error;
    logger.warn(
      { err: error, taskQueue },
      'the Temporal server does not take task queue rate limits: the slow lane runs without them',
    );
  }
}
