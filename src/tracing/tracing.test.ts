import { currentTracing, inSpan, startTracing, tracesUrlOf } from './tracing';

describe('tracing settings', () => {
  const none = { OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined };

  it('sends traces to the base endpoint’s /v1/traces, or to the traces endpoint as given', () => {
    expect(tracesUrlOf(none)).toBeUndefined();
    expect(tracesUrlOf({ ...none, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      tracesUrlOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/otlp',
      }),
    ).toBe('http://traces:9999/otlp');
  });

  it('starts nothing without an endpoint, and a span helper then only runs its work', async () => {
    const sut = startTracing({ ...none, OTEL_SERVICE_NAME: 'crm-webhooks' });
    expect(sut).toBeUndefined();
    expect(currentTracing()).toBeUndefined();
    await expect(inSpan('record write', {}, async (span) => span)).resolves.toBeUndefined();
  });
});
