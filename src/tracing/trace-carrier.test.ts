import { context, createTraceState, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { activeTraceCarrier, inTraceOf } from './trace-carrier';
import { startTracing, type Tracing } from './tracing';

// A span's place in a trace, set as the active one without making a span (nothing is exported).
const parent = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  traceFlags: TraceFlags.SAMPLED,
};
const activeIn = () => trace.getSpanContext(context.active());

describe('a trace context kept with work and continued later', () => {
  it('keeps nothing while tracing is off, and then runs the work where it is called', () => {
    const sut = context.with(trace.setSpanContext(ROOT_CONTEXT, parent), activeTraceCarrier);
    expect(sut).toBeNull();
    expect(inTraceOf({ traceparent: `00-${parent.traceId}-${parent.spanId}-01` }, () => 'ran')).toBe('ran');
  });

  describe('with tracing on', () => {
    let tracing: Tracing | undefined;
    beforeAll(() => {
      // No span ends in these tests, so nothing is sent to this (closed) port.
      tracing = startTracing({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
        OTEL_SERVICE_NAME: 'crm-webhooks',
      });
    });
    afterAll(() => tracing?.shutdown());

    it('writes the active span as W3C traceparent and tracestate, and continues it as the parent', () => {
      const traced = { ...parent, traceState: createTraceState('vendor=abc,other=1') };
      const sut = context.with(trace.setSpanContext(ROOT_CONTEXT, traced), activeTraceCarrier);
      expect(sut).toEqual({
        traceparent: `00-${parent.traceId}-${parent.spanId}-01`,
        tracestate: 'vendor=abc,other=1',
      });
      const continued = inTraceOf(sut, activeIn);
      expect(continued).toMatchObject({ ...parent, isRemote: true });
      expect(continued!.traceState?.get('vendor')).toBe('abc');
    });

    it('keeps no tracestate the trace has not, and nothing without an active span', () => {
      expect(context.with(trace.setSpanContext(ROOT_CONTEXT, parent), activeTraceCarrier)).toEqual({
        traceparent: `00-${parent.traceId}-${parent.spanId}-01`,
      });
      expect(context.with(ROOT_CONTEXT, activeTraceCarrier)).toBeNull();
    });

    it('runs work without a carrier in the context it is called in', () => {
      const active = context.with(trace.setSpanContext(ROOT_CONTEXT, parent), () =>
        inTraceOf(null, activeIn),
      );
      expect(active).toMatchObject(parent);
    });
  });
});
