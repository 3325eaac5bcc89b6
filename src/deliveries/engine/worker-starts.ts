import type { DataSource } from 'typeorm';
import type { Logger } from '../../logger';
import { claimUnstarted } from '../store';
import type { DeliveryStarter } from './delivery-starter';
import { startDeliveries } from './start-deliveries';

/** The PostgreSQL channel on which API processes wake the worker processes to start deliveries. */
export const DELIVERY_STARTS_CHANNEL = 'delivery_starts';

const CLAIMED_PER_PASS = 200;

/**
 * A worker process's starts of the deliveries API processes dispatched and left to it
 * (docs/topology.md#eager-start): started here, where a worker of the task queue runs, they are
 * eager. A pass claims the oldest unclaimed rows, so each delivery is started by one worker; what a
 * worker claimed and did not start (it died, Temporal was away) is the dispatch sweep's. One pass at
 * a time; wakes meanwhile make one more after it.
 */
export class WorkerStarts {
  private pass: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly starter: DeliveryStarter,
    private readonly logger: Logger,
  ) {}

  wake(): void {
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = this.startClaimed()
      .catch((error: unknown) => this.logger.error({ err: error }, 'starting claimed deliveries failed'))
      .finally(() => {
        this.pass = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves when no pass runs (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pass) await this.pass;
  }

  /** Claims and starts until none are left, or none of a full claim could start (Temporal away). */
  private async startClaimed(): Promise<void> {
    const { manager } = this.dataSource;
    for (;;) {
      const claimed = await claimUnstarted(manager, CLAIMED_PER_PASS);
      const started = await startDeliveries(claimed, this.starter, manager, this.logger);
      if (claimed.length < CLAIMED_PER_PASS || started === 0) return;
    }
  }
}
