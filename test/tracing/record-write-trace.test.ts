import { currentTracing } from '../../src/tracing/tracing';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { eventually } from '../helpers/eventually';
import {
  chainUp,
  OtlpCollector,
  RECORD_WRITE_TO_POST,
  traceOfRequest,
  treeOf,
  type CollectedSpan,
} from '../helpers/otlp-collector';
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
      trace = traceOfRequest(collector, (span) => span.name === 'POST /api/v1/records/:type');
      return trace.some(
        (span) => span.name === 'POST' && span.attributes['http.response.status_code'] === 200,
      );
    }, "the POST to the receiver is exported in the write's trace");
    if (process.env.PRINT_TRACE) console.log(treeOf(trace));

    // From the POST up to the root, each span the child of the next.
    const chain = chainUp(
      trace,
      trace.find((span) => span.name === 'POST'),
    );
    expect(chain.map((span) => span.name).reverse()).toEqual(RECORD_WRITE_TO_POST);
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
