import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { DELIVERY_TIMEOUT_MS } from '../../shared/limits';
import { networkInterfaces } from 'node:os';
import {
  checkOutboundAddress,
  ownListenerAt,
  ownListenerRefusal,
  parseAllowList,
  refusalMessage,
  type AllowList,
  type OwnListener,
} from './outbound-guard';
import { SpanKind } from '@opentelemetry/api';
import { inSpan } from '../../tracing/tracing';
import type { AttemptResult } from '../../shared/deliveries/retry-policy';

/** A destination the outbound guard refused; `message` is the delivery's failure message. */
class OutboundRefusedError extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
}

export interface HttpSenderOptions {
  /** The whole exchange, connection included. */
  timeoutMs?: number;
  /** Private and loopback CIDRs deliveries may reach (outbound-guard.ts); default none. */
  allowedCidrs?: readonly string[];
  /** The service's own listeners, never reached whatever the allow-list says. */
  ownListeners?: readonly OwnListener[];
  /**
   * Connections to one receiver's origin at most: at least the attempts the worker may have in flight
   * to it, as a request waiting for a connection would spend its 5 s waiting. Default 64.
   */
  maxSocketsPerReceiver?: number;
}

/**
 * POSTs deliveries over keep-alive connections, bounded per receiver. Only the status line is
 * kept: the receiver's body is read and dropped
 * (docs/deliveries.md#what-is-kept-for-how-long-and-why: "The response body of the receiver is not
 * stored"). The 5 s limit covers the whole exchange, connection included.
 *
 * Every connection goes through the outbound guard: the request's `lookup` resolves the host,
 * checks every address it got (with the port: the service's own listeners are refused) and hands
 * only checked addresses to the socket, so the address checked is the address connected to (no
 * second resolution to rebind). IP literals skip `lookup` in Node, so post() checks those itself.
 */
export class HttpSender {
  private readonly timeoutMs: number;
  private readonly allowList: AllowList;
  private readonly ownListeners: readonly OwnListener[];
  private readonly localAddresses: string[];
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };

  constructor(options: HttpSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.allowList = parseAllowList(options.allowedCidrs ?? []);
    this.ownListeners = options.ownListeners ?? [];
    this.localAddresses = Object.values(networkInterfaces())
      .flat()
      .map((info) => info?.address)
      .filter((address): address is string => Boolean(address));
    // No `lookup` here: the agent's options would override the request's, which knows the port.
    const maxSockets = options.maxSocketsPerReceiver ?? 64;
    const agentOptions = {
      keepAlive: true,
      maxSockets,
      // A slow receiver kept at hundreds in flight reuses its connections instead of reopening them.
      maxFreeSockets: Math.min(maxSockets, 256),
      scheduling: 'lifo' as const,
    };
    this.agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  }

  /** Why an address (and port) may not be connected to, as the delivery's message; null when it may. */
  private refusal(address: string, port: number, host: string): string | null {
    const refusal =
      checkOutboundAddress(address, this.allowList) ??
      (ownListenerAt(address, port, this.ownListeners, this.localAddresses)
        ? ownListenerRefusal(address)
        : null);
    return refusal ? refusalMessage(refusal, host) : null;
  }

  /** dns.lookup for a request to `port`, refusing the host if any address it resolves to is refused. */
  private guardedLookup(port: number): LookupFunction {
    return (hostname, options, callback) => {
      dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '');
        for (const { address } of addresses) {
          const refused = this.refusal(address, port, hostname);
          if (refused) return callback(new OutboundRefusedError(refused), '');
        }
        if (options.all) return callback(null, addresses);
        const [first] = addresses;
        if (!first)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        callback(null, first.address, first.family);
      });
    };
  }

  /**
   * POSTs a delivery; traced as a client span, the attempt's activity's child
   * (docs/observability.md#traces), naming the receiver's host and port, never the URL (its path
   * or query may hold a token).
   */
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    cancel?: AbortSignal,
  ): Promise<AttemptResult> {
    const { hostname, port, protocol } = new URL(url);
    const attributes = {
      'http.request.method': 'POST',
      'server.address': hostname,
      'server.port': Number(port) || (protocol === 'https:' ? 443 : 80),
    };
    return inSpan('POST', { kind: SpanKind.CLIENT, attributes }, async (span) => {
      const result = await this.send(url, headers, body, cancel);
      if (result.kind === 'response') span?.setAttribute('http.response.status_code', result.statusCode);
      else span?.setAttribute('error.type', result.kind);
      return result;
    });
  }

  private send(
    url: string,
    headers: Record<string, string>,
    body: string,
    cancel?: AbortSignal,
  ): Promise<AttemptResult> {
    const target = new URL(url);
    const protocol = target.protocol as 'http:' | 'https:';
    const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(target.port) || (protocol === 'https:' ? 443 : 80);
    if (isIP(literal)) {
      const refused = this.refusal(literal, port, literal);
      if (refused) return Promise.resolve({ kind: 'refused', message: refused });
    }
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
          lookup: this.guardedLookup(port),
          headers: { ...headers, 'Content-Length': String(payload.length) },
          signal,
        },
        (response) => {
          response.resume(); // drain and drop the body (the spec keeps no response body)
          const answer: AttemptResult = {
            kind: 'response',
            statusCode: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            headers: headerPairs(response.rawHeaders),
          };
          response.on('end', () => settle(answer));
          response.on('error', () => settle(answer));
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        // The guard's message only: no socket error that would map the internal address's ports.
        if (error instanceof OutboundRefusedError) settle({ kind: 'refused', message: error.message });
        else if (timeout.aborted) settle({ kind: 'timeout' });
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

/** Node's flat rawHeaders ([name, value, name, value, …]) as pairs. */
function headerPairs(raw: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) pairs.push([raw[index]!, raw[index + 1]!]);
  return pairs;
}
