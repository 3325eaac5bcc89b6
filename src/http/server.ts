import type { Server } from 'node:http';
import type Koa from 'koa';

/** A port another program holds: one line that says which variable picks a free one. */
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

/** Listens, turning EADDRINUSE into a clear one-line error. */
export function listen(app: Koa, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, 'PORT', 'the API') : error);
    });
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
