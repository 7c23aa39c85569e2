import type { IncomingMessage } from 'node:http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** Probes and scrapes: answered many times a minute, never part of a call worth tracing. */
const UNTRACED_PATHS = /^\/(healthz|readyz|metrics)(\/|\?|$)/;

let provider: NodeTracerProvider | null = null;

/**
 * Where spans go: the OTLP/HTTP endpoint named by the standard variables (`OTEL_EXPORTER_OTLP_
 * ENDPOINT` or `…_TRACES_ENDPOINT`, read by the exporter itself), or `exporter` when a test passes
 * one. Neither: no processor, and tracing is not started at all.
 */
function spanProcessors(env: NodeJS.ProcessEnv, exporter?: SpanExporter): SpanProcessor[] {
  if (exporter) return [new SimpleSpanProcessor(exporter)];
  if (env.OTEL_SDK_DISABLED === 'true') return [];
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
    return [new BatchSpanProcessor(new OTLPTraceExporter())];
  return [];
}

/**
 * Starts OpenTelemetry tracing for this process when spans have somewhere to go (see
 * spanProcessors); otherwise it does nothing and costs nothing. Must run before http, undici, the
 * MongoDB driver and ioredis are first loaded: each service's `main` imports its `tracing` module
 * first. W3C `traceparent` is read from incoming requests and sent on outgoing ones; spans cover
 * HTTP in and out, the gateway's query plan and fetches (@apollo/gateway's own spans), MongoDB
 * commands and Redis commands made within a request.
 */
export function startTracing(
  service: string,
  env: NodeJS.ProcessEnv = process.env,
  exporter?: SpanExporter,
): boolean {
  const processors = spanProcessors(env, exporter);
  if (processors.length === 0 || provider) return false;
  provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME ?? service }),
    ),
    spanProcessors: processors,
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) =>
          UNTRACED_PATHS.test(request.url ?? ''),
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      new MongoDBInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  return true;
}

/** Sends the spans still buffered and stops tracing (a service's last step before exiting). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  provider = null;
  await stopping?.shutdown();
}
