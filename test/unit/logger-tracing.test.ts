import { trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createLogger } from '../../common/platform/logger';
import { startTracing } from '../../common/platform/tracing';
import { captureLogs } from '../support/log-capture';

describe('log lines and traces', () => {
  const provider = new NodeTracerProvider();
  beforeAll(() => provider.register());
  afterAll(() => provider.shutdown());

  it('when a line is written within a span, then it carries that span’s trace and span ids; outside, neither', () => {
    const logs = captureLogs();
    const logger = createLogger('test', 'info', logs.sink);
    let ids = { traceId: '', spanId: '' };
    trace.getTracer('test').startActiveSpan('call', (span) => {
      ids = span.spanContext();
      logger.info('inside');
      span.end();
    });
    logger.info('outside');
    const [inside, outside] = logs.records();
    expect(inside).toMatchObject({ msg: 'inside', traceId: ids.traceId, spanId: ids.spanId });
    expect(ids.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(outside).toMatchObject({ msg: 'outside' });
    expect(outside).not.toHaveProperty('traceId');
  });
});

describe('starting tracing', () => {
  it('when no OTLP endpoint is configured, then tracing is not started', () => {
    expect(startTracing('test', {})).toBe(false);
    expect(startTracing('test', { OTEL_SERVICE_NAME: 'x' })).toBe(false);
  });

  it('when OTEL_SDK_DISABLED is true, then an endpoint does not start it', () => {
    expect(
      startTracing('test', {
        OTEL_SDK_DISABLED: 'true',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      }),
    ).toBe(false);
  });
});
