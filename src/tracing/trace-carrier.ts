import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { currentTracing } from './tracing';

/**
 * A span's place in its trace as W3C Trace Context writes it (`traceparent`, and `tracestate` when
 * the trace has one), kept with work that another process starts later: a delivery an API process
 * commits and a worker process starts (docs/observability.md#where-a-trace-stops).
 */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

/**
 * The active span's trace context, written by OpenTelemetry's registered propagator (W3C Trace
 * Context, src/tracing/tracing.ts); null while tracing is off or no span is active, so an untraced
 * process keeps nothing.
 */
export function activeTraceCarrier(): TraceCarrier | null {
  if (!currentTracing()) return null;
  const written: Record<string, string> = {};
  propagation.inject(context.active(), written);
  if (!written.traceparent) return null;
  // Only the trace's own two fields: baggage, were any set, is not the work's to keep.
  return written.tracestate
    ? { traceparent: written.traceparent, tracestate: written.tracestate }
    : { traceparent: written.traceparent };
}

/**
 * Runs `work` as a continuation of the trace `carrier` names, so the spans it makes are children of
 * the span that wrote the carrier; without a carrier, or with tracing off, in the context it is
 * called in.
 */
export function inTraceOf<T>(carrier: TraceCarrier | null | undefined, work: () => T): T {
  if (!carrier || !currentTracing()) return work();
  return context.with(propagation.extract(ROOT_CONTEXT, carrier), work);
}
