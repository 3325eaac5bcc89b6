import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../logger';

let installed = false;

const PINO_LEVEL: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** Routes the Temporal SDK's own logs into pino. Must run before any worker connection exists. */
export function installTemporalRuntime(logger: Logger): void {
  if (installed) return;
  installed = true;
  const temporalLogger = logger.child({ component: 'temporal-sdk' });
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      temporalLogger[PINO_LEVEL[entry.level]](entry.meta ?? {}, entry.message);
    }),
  });
}
