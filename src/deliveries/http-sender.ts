import http from 'node:http';
import https from 'node:https';
import { DELIVERY_TIMEOUT_MS } from '../limits';
import type { AttemptResult } from './retry-policy';

/**
 * POSTs deliveries over keep-alive connections, bounded per receiver. Only the status line is
 * kept: the receiver's body is read and dropped (spec.md: "The response body of the receiver is
 * not stored"). The 5 s limit covers the whole exchange, connection included.
 */
export class HttpSender {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo' }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo' }),
  };

  constructor(private readonly timeoutMs = DELIVERY_TIMEOUT_MS) {}

  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    cancel?: AbortSignal,
  ): Promise<AttemptResult> {
    const target = new URL(url);
    const protocol = target.protocol as 'http:' | 'https:';
    const payload = Buffer.from(body, 'utf8');
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (result: AttemptResult) => {
        if (!settled) {
          settled = true;
          resolve(result);
        }
      };
      const request = (protocol === 'https:' ? https : http).request(
        target,
        {
          method: 'POST',
          agent: this.agents[protocol],
          headers: { ...headers, 'Content-Length': String(payload.length) },
          signal,
        },
        (response) => {
          response.resume(); // drain and drop the body
          response.on('end', () =>
            settle({
              kind: 'response',
              statusCode: response.statusCode ?? 0,
              statusText: response.statusMessage ?? '',
            }),
          );
          response.on('error', () =>
            settle({
              kind: 'response',
              statusCode: response.statusCode ?? 0,
              statusText: response.statusMessage ?? '',
            }),
          );
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (timeout.aborted) settle({ kind: 'timeout' });
        else
          settle({
            kind: 'network',
            message: error.code ? `${error.code}: ${error.message}` : error.message,
          });
      });
      request.end(payload);
    });
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
