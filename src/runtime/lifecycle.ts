import type { Logger } from '../logger';

type Stopper = { name: string; stop: () => Promise<void> };

/**
 * Things started in order are stopped in reverse order, each awaited, so the API stops taking
 * requests before the worker drains, and the worker drains before Temporal and PostgreSQL stop.
 */
export class Lifecycle {
  private readonly stoppers: Stopper[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  add(name: string, stop: () => Promise<void>): void {
    this.stoppers.push({ name, stop });
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const { name, stop } of [...this.stoppers].reverse()) {
        try {
          await stop();
          this.logger.debug({ component: name }, 'stopped');
        } catch (error) {
          this.logger.warn({ err: error, component: name }, 'error while stopping');
        }
      }
    })();
    return this.stopping;
  }

  /** SIGINT/SIGTERM stop everything and exit; a second signal exits at once. */
  stopOnSignals(onStopped: () => void): void {
    let signalled = false;
    const handler = (signal: NodeJS.Signals) => {
      if (signalled) {
        process.stderr.write(`Second ${signal}: exiting without waiting.\n`);
        process.exit(130);
      }
      signalled = true;
      process.stdout.write(`\n${signal} received, stopping…\n`);
      void this.stop().then(onStopped);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  }
}
