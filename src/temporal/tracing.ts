import { createTraceState } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ClientInterceptors } from '@temporalio/client';
import type { OpenTelemetrySinks, SerializableSpan } from '@temporalio/interceptors-opentelemetry';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import { currentTracing, type Tracing } from '../tracing/tracing';

/**
 * Temporal's OpenTelemetry interceptors, bundled into the workflow code of a process that traces
 * (workflow-bundle.ts): they make spans inside the workflow sandbox, deterministically, and hand
 * them to the worker through the `exporter` sink. The workflows use no randomness of their own, so
 * a history made with them replays without them and the other way round.
 */
export const WORKFLOW_TRACING_MODULE =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

type TemporalInterceptors = typeof import('@temporalio/interceptors-opentelemetry');

/**
 * The interceptors' package, loaded only while tracing is on: with its own OpenTelemetry SDK it
 * costs about 0.1 s of CPU to load (CONTRIBUTING.md, "Where a file's CPU goes"), and most processes
 * do not trace.
 */
function temporalInterceptors(): TemporalInterceptors {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load, see above
  return require('@temporalio/interceptors-opentelemetry') as TemporalInterceptors;
}

/** The client's interceptors: with tracing on, a workflow start is a span whose context travels in the start's headers. */
export function tracingClientInterceptors(): ClientInterceptors | undefined {
  if (!currentTracing()) return undefined;
  return { workflow: [new (temporalInterceptors().OpenTelemetryWorkflowClientInterceptor)()] };
}

/** A worker's activity interceptors (each activity a span, child of the workflow's) while tracing is on. */
export function tracingActivityInterceptors(): WorkerInterceptors['activity'] {
  if (!currentTracing()) return [];
  const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } =
    temporalInterceptors();
  return [
    (ctx) => ({
      inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
      outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
    }),
  ];
}

/** The sink the bundled workflow interceptors export their spans to (never called on replay). */
export function tracingSinks(): InjectedSinks<OpenTelemetrySinks> {
  const tracing = currentTracing();
  return {
    exporter: {
      export: {
        fn: tracing
          ? (_info, spans) => spans.forEach((span) => tracing.processor.onEnd(readableSpan(span, tracing)))
          : () => undefined,
        callDuringReplay: false,
      },
    },
  };
}

/**
 * A span from the sandbox as this process's SDK reads it. The interceptors' sandbox side is
 * OpenTelemetry's 1.x SDK (`parentSpanId`, `instrumentationLibrary`); the exporter is 2.x
 * (`parentSpanContext`, `instrumentationScope`), which would otherwise drop the parent link.
 */
function readableSpan(span: SerializableSpan, tracing: Tracing): ReadableSpan {
  const { spanContext, parentSpanId, instrumentationLibrary, ...rest } = span;
  const context = {
    ...spanContext,
    traceState: spanContext.traceState ? createTraceState(spanContext.traceState) : undefined,
  };
  return {
    ...rest,
    spanContext: () => context,
    parentSpanContext: parentSpanId
      ? { traceId: context.traceId, spanId: parentSpanId, traceFlags: context.traceFlags }
      : undefined,
    resource: tracing.resource,
    instrumentationScope: instrumentationLibrary,
  };
}
