import type { SpanExporter } from '@opentelemetry/sdk-trace-node';

let provider: { shutdown(): Promise<void> } | null = null;

/** Whether spans have somewhere to go: an OTLP endpoint in the standard variables. */
const exporting = (env: NodeJS.ProcessEnv) =>
  env.OTEL_SDK_DISABLED !== 'true' &&
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);

/**
 * Starts OpenTelemetry tracing for this process when spans have somewhere to go: the OTLP/HTTP
 * endpoint of `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`), or `exporter` when a test
 * passes one. Otherwise it does nothing, and the SDK is not even loaded. Must run before http,
 * undici, the MongoDB driver and ioredis are first loaded: each service's `main` imports its
 * `tracing` module first. Spans cover HTTP in and out (W3C `traceparent` read and sent), the
 * gateway's query plan and fetches (@apollo/gateway's own spans), and the MongoDB and Redis
 * commands made within a request (common/tracing-sdk.ts).
 */
export function startTracing(
  service: string,
  env: NodeJS.ProcessEnv = process.env,
  exporter?: SpanExporter,
): boolean {
  if (provider || (!exporter && !exporting(env))) return false;
  // Loaded here, not imported: about 90 ms of start-up that a service without tracing skips.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startSdk } = require('./tracing-sdk') as typeof import('./tracing-sdk');
  provider = startSdk(env.OTEL_SERVICE_NAME ?? service, exporter);
  return true;
}

/** Sends the spans still buffered and stops tracing (a service's last step before exiting). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  provider = null;
  await stopping?.shutdown();
}
