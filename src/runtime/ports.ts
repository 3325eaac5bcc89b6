import { createServer } from 'node:net';
import { PortInUseError } from '../http/server';

/** Resolves when nothing listens on `port` at `host`; rejects with PortInUseError otherwise. */
export function assertPortFree(port: number, host: string, variable: string, purpose: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? new PortInUseError(port, variable, purpose)
          : error,
      );
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
