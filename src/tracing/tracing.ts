import { SpanStatusCode, trace, type Attributes, type Span, type SpanKind } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config';

/** The process's tracing, once started: where its spans go, and how to flush them at exit. */
export interface Tracing {
  resource: Resource;
  processor: SpanProcessor;
  shutdown: () => Promise<void>;
}

/** The OTLP/HTTP traces URL of the settings (docs/observability.md#traces), or undefined: no tracing. */
export function tracesUrlOf(
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'>,
): string | undefined {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  // The OTLP convention: the base endpoint gets the signal's path.
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT)
    return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces`;
  return undefined;
}

// One per process (OpenTelemetry's API is global): the embedded stack's API and worker share it.
let started: Tracing | undefined;

/**
 * Starts exporting this process's spans over OTLP/HTTP (JSON) when an endpoint is configured, and
 * registers the provider, the async context and W3C propagation with OpenTelemetry's API. Without
 * one, nothing is registered: every span helper here runs its work and nothing else.
 */
export function startTracing(
  config: Pick<
    Config,
    'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_SERVICE_NAME'
  >,
): Tracing | undefined {
  const url = tracesUrlOf(config);
  if (!url || started) return started;
  const { OTLPTraceExporter, resourceFromAttributes, BatchSpanProcessor, NodeTracerProvider } = tracingSdk();
  const resource = resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME });
  const processor = new BatchSpanProcessor(new OTLPTraceExporter({ url }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  const tracing: Tracing = {
    resource,
    processor,
    shutdown: async () => {
      started = undefined;
      await provider.shutdown();
      trace.disable();
    },
  };
  started = tracing;
  return tracing;
}

/**
 * OpenTelemetry's SDK and OTLP exporter, loaded only by a process that traces: most run without an
 * endpoint, and loading them costs about 0.1 s of CPU (CONTRIBUTING.md, "Where a file's CPU goes").
 */
function tracingSdk() {
  /* eslint-disable @typescript-eslint/no-require-imports -- a deferred load, see above */
  return {
    ...(require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')),
    ...(require('@opentelemetry/resources') as typeof import('@opentelemetry/resources')),
    ...(require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base')),
    ...(require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node')),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** The process's tracing, or undefined when no endpoint is configured. */
export const currentTracing = (): Tracing | undefined => started;

/**
 * Runs `work` in a span of its own, the active span's child (the span records a thrown error and
 * ends with the work); without tracing, runs `work` alone.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes },
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!started) return work(undefined);
  return trace.getTracer('crm-webhooks').startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
