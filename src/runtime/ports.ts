import { createServer } from 'node:net';

export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(
    readonly port: number,
    readonly variable: string,
    readonly purpose: string,
  ) {
    super(
      `Port ${port} (${purpose}) is already in use. Stop the program using it, or set ${variable} to a free port.`,
    );
  }
}

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
