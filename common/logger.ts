import pino, { type DestinationStream, type Logger } from 'pino';

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

/** JSON logs to stdout, or to `destination` (tests read what was logged). */
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
  };
  return destination ? pino(options, destination) : pino(options);
}
