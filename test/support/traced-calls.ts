/**
 * Run as its own process by test/integration/tracing.test.ts (instrumentations patch modules as
 * Node's own `require` loads them, which jest's module registry bypasses). Starts tracing into an
 * in-memory exporter, then the real stack in this process on FerretDB and Redis, makes one REST
 * call and one GraphQL call to the gateway, each with a W3C `traceparent`, and prints every span
 * and every log line as one JSON document on stdout.
 *
 * Environment: TEST_MONGODB_URI, TEST_REDIS_URL, REST_TRACEPARENT, GATEWAY_TRACEPARENT.
 */
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import { startTracing, stopTracing } from '../../common/platform/tracing';

const exporter = new InMemorySpanExporter();
startTracing('traced-stack', {}, exporter);

async function main() {
  // Loaded only now, so that http, undici, MongoDB and ioredis are patched as they load.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { startStack } = require('./stack') as typeof import('./stack');
  const { buildAccessToken, buildAccount, buildApiKey } =
    require('./factories') as typeof import('./factories');
  const { captureLogs } = require('./log-capture') as typeof import('./log-capture');
  /* eslint-enable @typescript-eslint/no-require-imports */

  const logs = captureLogs();
  const stack = await startStack(
    'tracing',
    { LOG_LEVEL: 'debug', WEBHOOK_WORKERS_ENABLED: 'false' },
    logs.sink,
  );
  const results: Record<string, number> = {};
  try {
    const account = await buildAccount(stack);
    const { key } = await buildApiKey(stack, account);
    const token = await buildAccessToken(stack, account.user.id);
    exporter.reset();

    const website = account.websites[0]!.id;
    const rest = await fetch(`${stack.facade.url}/api/external/v1/websites/${website}`, {
      headers: { 'x-api-key': key, traceparent: process.env.REST_TRACEPARENT! },
    });
    results.rest = rest.status;
    await rest.arrayBuffer();

    const gateway = await fetch(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token.token}`,
        traceparent: process.env.GATEWAY_TRACEPARENT!,
      },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    results.gateway = gateway.status;
    await gateway.arrayBuffer();
  } finally {
    await stack.stop();
  }
  // Read before stopTracing: shutting the in-memory exporter down empties it.
  const spans = exporter.getFinishedSpans().map((span) => ({
    name: span.name,
    kind: span.kind,
    scope: span.instrumentationScope.name,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: span.attributes,
  }));
  await stopTracing();
  process.stdout.write(`${JSON.stringify({ results, spans, logs: logs.lines })}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
    process.exit(1);
  },
);
