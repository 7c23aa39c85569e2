import pino, { type DestinationStream, type Logger } from 'pino';
import { trace } from '@opentelemetry/api';

export type { Logger };

/** Paths that may carry a credential; pino replaces them before anything is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers["x-internal-signature"]',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.secret',
  '*.key',
  '*.token',
];

/**
 * JSON logs to stdout, or to `destination` (tests read what was logged). A line written within a
 * traced request carries its `traceId` and `spanId`.
 */
export function createLogger(
  service: string,
  level: string,
  destination?: DestinationStream,
): Logger {
  const options = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label: string) => ({ level: label }) },
    mixin: traceFields,
  };
  return destination ? pino(options, destination) : pino(options);
}

/** The trace and span a log line is written in (nothing outside a span, or with tracing off). */
function traceFields(): { traceId?: string; spanId?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}
