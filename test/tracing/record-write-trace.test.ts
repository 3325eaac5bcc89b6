import { currentTracing } from '../../src/tracing/tracing';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { eventually } from '../helpers/eventually';
import { OtlpCollector, type CollectedSpan } from '../helpers/otlp-collector';
import { Receiver } from '../helpers/receiver';

/**
 * One record write traced to its POST (issue 37, item 5): with OTEL_EXPORTER_OTLP_ENDPOINT set, the
 * app (a real worker, the real workflow bundle, a real receiver) exports its spans over OTLP/HTTP to
 * a collector in this process, and one trace holds the API request, the record write, the workflow
 * start, the workflow, its attempt's activity and the POST to the receiver, each the child of the
 * one before. `PRINT_TRACE=1` prints the trace as a tree (docs/observability.md shows one).
 */
describe('a record write traced from the API to the POST to the receiver', () => {
  let collector: OtlpCollector;
  let receiver: Receiver;
  let fx: DeliveryFixture;

  beforeAll(async () => {
    [collector, receiver] = await Promise.all([new OtlpCollector().start(), new Receiver().start()]);
    fx = await deliveryFixture({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
  }, 180_000);

  afterAll(async () => {
    await fx?.close();
    await Promise.all([collector?.stop(), receiver?.stop()]);
  });

  it('exports one trace whose spans run parent to child from the API request to the POST', async () => {
    const webhook = await fx.webhook(`${receiver.url}/traced`);
    const deal = await fx.createDeal('Traced deal');
    const [delivery] = await fx.deliveriesOf(webhook.id);
    expect((await fx.finish(delivery!.id)).status).toBe('delivered');
    expect(receiver.received).toHaveLength(1);

    // The spans of the write's request, found by its route; then everything of its trace.
    let trace: CollectedSpan[] = [];
    await eventually(async () => {
      await currentTracing()!.processor.forceFlush();
      const request = collector.spans.find((span) => span.name === 'POST /api/v1/records/:type');
      trace = collector.spans.filter((span) => span.traceId === request?.traceId);
      return trace.some(
        (span) => span.name === 'POST' && span.attributes['http.response.status_code'] === 200,
      );
    }, "the POST to the receiver is exported in the write's trace");
    if (process.env.PRINT_TRACE) console.log(treeOf(trace));

    // From the POST up to the root, each span the child of the next.
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    const chain: CollectedSpan[] = [];
    for (let span = trace.find((s) => s.name === 'POST'); span; span = byId.get(span.parentSpanId ?? ''))
      chain.push(span);
    expect(chain.map((span) => span.name).reverse()).toEqual([
      'POST /api/v1/records/:type',
      'record write',
      'StartWorkflow:deliveryWorkflow',
      'RunWorkflow:deliveryWorkflow',
      expect.stringMatching(/^StartActivity:/),
      expect.stringMatching(/^RunActivity:/),
      'POST',
    ]);
    // The root is the request, with no parent; every span is of this service.
    expect(chain.at(-1)!.parentSpanId).toBeUndefined();
    expect(new Set(trace.map((span) => span.service))).toEqual(new Set(['crm-webhooks']));
    const [request, , start] = [...chain].reverse();
    expect(request!.attributes).toMatchObject({
      'http.route': '/api/v1/records/:type',
      'http.response.status_code': 201,
    });
    expect(start!.attributes).toMatchObject({ temporalWorkflowId: expect.stringContaining(delivery!.id) });
    expect(chain[0]!.attributes).toMatchObject({
      'server.address': '127.0.0.1',
      'http.request.method': 'POST',
    });
    expect(JSON.stringify(trace)).not.toContain(deal.id);
  });
});

/** The trace as an indented tree of span names, children in start order. */
function treeOf(spans: CollectedSpan[]): string {
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
