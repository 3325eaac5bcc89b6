import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, with its resource's service name. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  service: string;
  scope: string;
  startTimeUnixNano: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: (Omit<CollectedSpan, 'service' | 'scope' | 'attributes'> & { attributes?: OtlpAttribute[] })[];
    }[];
  }[];
}

const valueOf = (value: OtlpValue): unknown =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue));
const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/**
 * An OTLP/HTTP collector on loopback, in the test's process: takes `POST /v1/traces` in the JSON
 * encoding (what @opentelemetry/exporter-trace-otlp-http sends) and keeps every span.
 */
export class OtlpCollector {
  readonly spans: CollectedSpan[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
          for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
            for (const span of scopeSpans.spans ?? []) {
              this.spans.push({
                ...span,
                parentSpanId: span.parentSpanId || undefined,
                service,
                scope: scopeSpans.scope?.name ?? '',
                attributes: attributesOf(span.attributes),
              });
            }
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * A record write's spans from its request to the receiver's POST, each the parent of the next, as
 * the embedded stack and the production topology both make them (docs/observability.md#traces).
 */
export const RECORD_WRITE_TO_POST = [
  'POST /api/v1/records/:type',
  'record write',
  'StartWorkflow:deliveryWorkflow',
  'RunWorkflow:deliveryWorkflow',
  expect.stringMatching(/^StartActivity:/),
  expect.stringMatching(/^RunActivity:/),
  'POST',
];

/** The spans of the trace whose request span has this name (the first such request), or none yet. */
export function traceOfRequest(collector: OtlpCollector, request: (span: CollectedSpan) => boolean) {
  const root = collector.spans.find(request);
  return root ? collector.spans.filter((span) => span.traceId === root.traceId) : [];
}

/** From `span` up to the root of its trace: the span, its parent, the parent's parent, and on. */
export function chainUp(trace: CollectedSpan[], span: CollectedSpan | undefined): CollectedSpan[] {
  const byId = new Map(trace.map((one) => [one.spanId, one]));
  const chain: CollectedSpan[] = [];
  for (let at = span; at; at = byId.get(at.parentSpanId ?? '')) chain.push(at);
  return chain;
}

/** The trace as an indented tree of span names, children in start order (`PRINT_TRACE=1`). */
export function treeOf(spans: CollectedSpan[]): string {
  const ids = new Set(spans.map((span) => span.spanId));
  const childrenOf = (parent: string | undefined) =>
    spans
      .filter((span) =>
        parent ? span.parentSpanId === parent : !span.parentSpanId || !ids.has(span.parentSpanId),
      )
      .sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
  const lines: string[] = [];
  const walk = (span: CollectedSpan, depth: number) => {
    const shown = Object.entries(span.attributes).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
    lines.push(`${'  '.repeat(depth)}${span.name}  ${shown.join(' ')}`.trimEnd());
    for (const child of childrenOf(span.spanId)) walk(child, depth + 1);
  };
  for (const root of childrenOf(undefined)) walk(root, 0);
  return lines.join('\n');
}
