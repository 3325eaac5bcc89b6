import { currentTracing } from '../../src/tracing/tracing';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { eventually } from '../helpers/eventually';
import {
  chainUp,
  OtlpCollector,
  RECORD_WRITE_TO_POST,
  treeOf,
  type CollectedSpan,
} from '../helpers/otlp-collector';
import { Receiver } from '../helpers/receiver';
import { sharedDevServerAddress } from '../helpers/test-run';

/**
 * One trace from the record write to the POST in the production topology (issue 37, item 5;
 * docs/observability.md#where-a-trace-stops): the API side commits the deliveries and leaves their
 * starts to the worker side, which claims them when woken (or the dispatch sweep starts them late).
 * The write's trace context travels with each delivery row, so each start is its own write's child.
 */
describe('a record write traced to the POST when a worker process starts its workflow', () => {
  let collector: OtlpCollector;
  let receiver: Receiver;
  let fx: DeliveryFixture;

  beforeAll(async () => {
    [collector, receiver] = await Promise.all([new OtlpCollector().start(), new Receiver().start()]);
    fx = await deliveryFixture(
      { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
      { temporalAddress: sharedDevServerAddress(), topology: true },
    );
  }, 180_000);

  afterAll(async () => {
    await fx?.close();
    await Promise.all([collector?.stop(), receiver?.stop()]);
  });

  /** The worker side's services: its claims of the API side's deliveries (workerStarts) and its dispatch sweep. */
  const worker = () => fx.app.workerServices!;

  /** Runs `work` while the worker side hears no notification (it died before it claimed, say). */
  async function unheard<T>(work: () => Promise<T>): Promise<T> {
    const starts = worker().workerStarts;
    const wake = starts.wake.bind(starts);
    starts.wake = () => undefined;
    try {
      return await work();
    } finally {
      starts.wake = wake;
    }
  }

  /**
   * The spans from the root of the trace that holds the delivery's POST down to that POST, once all
   * of them are exported (the workflow's spans leave the worker when the workflow ends).
   */
  async function chainToPostOf(deliveryId: string): Promise<CollectedSpan[]> {
    let chain: CollectedSpan[] = [];
    await eventually(async () => {
      await currentTracing()!.processor.forceFlush();
      const attempt = collector.spans.find(
        (span) =>
          span.name.startsWith('RunActivity:') &&
          String(span.attributes.temporalWorkflowId).includes(deliveryId),
      );
      const post = collector.spans.find(
        (span) => span.name === 'POST' && span.parentSpanId === attempt?.spanId,
      );
      chain = post
        ? chainUp(
            collector.spans.filter((span) => span.traceId === post.traceId),
            post,
          )
        : [];
      // Up to a root: a span with no parent (a span whose parent is missing is not exported yet).
      return chain.length > 0 && chain.at(-1)!.parentSpanId === undefined;
    }, `the spans from the POST of ${deliveryId} up to its trace's root are exported`);
    if (process.env.PRINT_TRACE)
      console.log(treeOf(collector.spans.filter((s) => s.traceId === chain[0]!.traceId)));
    return chain.reverse();
  }

  const names = (chain: CollectedSpan[]) => chain.map((span) => span.name);

  it("is one trace from the write's request down to the receiver's POST, the start the worker's", async () => {
    const webhook = await fx.webhook(`${receiver.url}/one`);
    await fx.createDeal('Traced apart');
    const [delivery] = await fx.deliveriesOf(webhook.id);

    const chain = await chainToPostOf(delivery!.id);
    expect(names(chain)).toEqual(RECORD_WRITE_TO_POST);
    // The root is the request (no parent), one trace id throughout, and each span the next's parent.
    expect(chain[0]!.parentSpanId).toBeUndefined();
    expect(new Set(chain.map((span) => span.traceId)).size).toBe(1);
    chain.slice(1).forEach((span, index) => expect(span.parentSpanId).toBe(chain[index]!.spanId));
    expect(chain[0]!.attributes).toMatchObject({ 'http.response.status_code': 201 });
    expect(chain[2]!.attributes).toMatchObject({ temporalWorkflowId: `delivery-${delivery!.id}` });
    expect(chain.at(-1)!.attributes).toMatchObject({ 'http.response.status_code': 200 });
    // What carried it: the write's span as W3C traceparent on the delivery's row.
    expect(delivery!.traceContext).toEqual({
      traceparent: `00-${chain[1]!.traceId}-${chain[1]!.spanId}-01`,
    });

    // The worker side started it (the API side starts none in the topology).
    const starts = await fx.app.workerMetrics!.getSingleMetric('webhook_workflow_starts_total')!.get();
    expect(starts.values.reduce((sum, value) => sum + value.value, 0)).toBeGreaterThanOrEqual(1);
    const apiStarts = await fx.app.metrics.getSingleMetric('webhook_workflow_starts_total')!.get();
    expect(apiStarts.values.reduce((sum, value) => sum + value.value, 0)).toBe(0);
  });

  it('gives each start of one claim the trace of its own write', async () => {
    const webhook = await fx.webhook(`${receiver.url}/two`);
    // Two writes committed before the worker side hears of either: one claim then takes both.
    await unheard(async () => {
      await fx.createDeal('First of a claim');
      await fx.createDeal('Second of a claim');
      await fx.deliveriesOf(webhook.id, 2);
    });
    worker().workerStarts.wake();
    const deliveries = await fx.deliveriesOf(webhook.id, 2);

    const chains = await Promise.all(deliveries.map((delivery) => chainToPostOf(delivery.id)));
    for (const chain of chains) expect(names(chain)).toEqual(RECORD_WRITE_TO_POST);
    // Two traces, two requests: each start's parent is its own write's span.
    const [first, second] = chains;
    expect(first![0]!.traceId).not.toBe(second![0]!.traceId);
    expect(first![2]!.parentSpanId).toBe(first![1]!.spanId);
    expect(second![2]!.parentSpanId).toBe(second![1]!.spanId);
  });

  it("joins a late start by the dispatch sweep to the write's trace", async () => {
    const webhook = await fx.webhook(`${receiver.url}/late`);
    // No worker hears of this write: its delivery waits, committed and unstarted, for the sweep.
    const [delivery] = await unheard(async () => {
      await fx.createDeal('Started late');
      return fx.deliveriesOf(webhook.id);
    });
    expect(delivery!.workflowStartedAt).toBeNull();
    expect(await worker().dispatcher.sweep(0)).toBeGreaterThanOrEqual(1);

    const chain = await chainToPostOf(delivery!.id);
    expect(names(chain)).toEqual(RECORD_WRITE_TO_POST);
    expect(chain[2]!.parentSpanId).toBe(chain[1]!.spanId);
  });

  it('keeps resends and test events in their request’s trace, and Retry now’s update in its own', async () => {
    // The API side starts these itself, inside the request, on its own client (never claimed).
    const webhook = await fx.webhook(`${receiver.url}/others`);
    await fx.createDeal('To resend');
    const [original] = await fx.deliveriesOf(webhook.id);
    await chainToPostOf(original!.id);
    const resent = await fx.api('POST', `/webhooks/${webhook.id}/deliveries/${original!.id}/resend`);
    expect(resent.status).toBe(201);
    expect(names(await chainToPostOf(resent.body.id))).toEqual([
      'POST /api/v1/webhooks/:id/deliveries/:deliveryId/resend',
      'StartWorkflow:resendDeliveryWorkflow',
      'RunWorkflow:resendDeliveryWorkflow',
      'StartChildWorkflow:deliveryWorkflow',
      ...RECORD_WRITE_TO_POST.slice(3),
    ]);
    const tested = await fx.api('POST', `/webhooks/${webhook.id}/test`, { event: 'record.created' });
    expect(tested.status).toBe(201);
    expect(names(await chainToPostOf(tested.body.id))).toEqual([
      'POST /api/v1/webhooks/:id/test',
      ...RECORD_WRITE_TO_POST.slice(2),
    ]);

    // Retry now: its request's trace holds the Update and the workflow's handling of it; the
    // attempt it brings forward runs in the workflow, in the write's trace.
    receiver.replies('/retried', { status: 503 }, { status: 200 });
    const retried = await fx.webhook(`${receiver.url}/retried`);
    await fx.createDeal('To retry');
    const [failing] = await fx.deliveriesOf(retried.id);
    await eventually(async () => {
      const [row] = await fx.deliveriesOf(retried.id);
      return row!.status === 'failed' && row!.nextAttemptAt !== null;
    }, 'the first attempt failed and the next waits');
    const now = await fx.api('POST', `/webhooks/${retried.id}/deliveries/${failing!.id}/retry-now`);
    expect(now.status).toBe(202);
    const write = await chainToPostOf(failing!.id);
    let spans: CollectedSpan[] = [];
    await eventually(async () => {
      await currentTracing()!.processor.forceFlush();
      spans = collector.spans;
      const delivered = spans.find(
        (span) =>
          span.name === 'POST' &&
          span.attributes['http.response.status_code'] === 200 &&
          span.traceId === write[0]!.traceId &&
          chainUp(spans, span).some((up) => String(up.attributes.temporalWorkflowId).includes(failing!.id)),
      );
      return delivered !== undefined && spans.some((span) => span.name === 'HandleUpdate:retryNow');
    }, "the retried attempt's POST is exported in the write's trace");
    const request = spans.find((span) => span.name.endsWith('/retry-now'))!;
    const update = spans.find((span) => span.name === 'StartWorkflowUpdate:retryNow')!;
    const handled = spans.find((span) => span.name === 'HandleUpdate:retryNow')!;
    expect(update.parentSpanId).toBe(request.spanId);
    expect(handled).toMatchObject({ traceId: request.traceId, parentSpanId: update.spanId });
  });
});
