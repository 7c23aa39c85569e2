import { randomBytes } from 'node:crypto';
import { testKeyPrefix } from '../support/redis';
import { testMongoUri } from '../support/stack';
import { TestProcess } from '../support/test-process';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const SERVER = 1;
const CLIENT = 2;

interface RecordedSpan {
  name: string;
  kind: number;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

const newTraceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, header: `00-${traceId}-${parentId}-01` };
};

/** Runs test/support/traced-calls.ts: the stack in one process, tracing into memory. */
async function runTracedCalls(env: Record<string, string>) {
  const traced = TestProcess.tsx('test/support/traced-calls.ts', {
    TEST_MONGODB_URI: process.env.TEST_MONGODB_URI ?? '',
    TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? '',
    ...env,
  });
  const code = await traced.exited;
  if (code !== 0) throw new Error(`traced-calls exited ${code}: ${traced.stderr}`);
  return JSON.parse(traced.stdout.trim().split('\n').pop()!) as {
    results: { rest: number; gateway: number };
    spans: RecordedSpan[];
  };
}

/** The spans of one trace as a tree: each span's chain of parents up to the caller's span. */
function treeOf(spans: RecordedSpan[], traceId: string) {
  const inTrace = spans.filter((span) => span.traceId === traceId);
  const byId = new Map(inTrace.map((span) => [span.spanId, span]));
  const parentOf = (span: RecordedSpan) =>
    span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
  const ancestors = (span: RecordedSpan): RecordedSpan[] => {
    const chain: RecordedSpan[] = [];
    for (let parent = parentOf(span); parent; parent = parentOf(parent)) chain.push(parent);
    return chain;
  };
  const roots = inTrace.filter((span) => !parentOf(span));
  return { spans: inTrace, parentOf, ancestors, roots };
}

describe('tracing', () => {
  const rest = newTraceparent();
  const gateway = newTraceparent();
  let recorded: Awaited<ReturnType<typeof runTracedCalls>>;
  beforeAll(async () => {
    recorded = await runTracedCalls({
      REST_TRACEPARENT: rest.header,
      GATEWAY_TRACEPARENT: gateway.header,
    });
  }, 60_000);

  it('when a REST call carries a traceparent, then it is one trace across facade, engine, subgraph and database', () => {
    expect(recorded.results.rest).toBe(200);
    const tree = treeOf(recorded.spans, rest.traceId);
    // One root, so no span of the call fell out of the tree: the facade's server span, a child
    // of the caller's span.
    expect(tree.roots).toHaveLength(1);
    const [facade] = tree.roots;
    expect(facade).toMatchObject({
      kind: SERVER,
      scope: '@opentelemetry/instrumentation-http',
      parentSpanId: rest.parentId,
    });
    expect(facade!.attributes['url.path']).toMatch(/^\/api\/external\/v1\/websites\//);

    // The engine (@apollo/gateway's own spans) plans and fetches from the keys subgraph.
    const request = tree.spans.find(
      (span) =>
        span.name === 'gateway.request' &&
        span.attributes['graphql.operation.name'] === 'GetWebsite',
    );
    expect(request && tree.parentOf(request)).toBe(facade);
    const fetch = tree.spans.find(
      (span) => span.name === 'gateway.fetch' && tree.ancestors(span).includes(request!),
    );
    expect(fetch?.attributes.service).toBe('keys');

    // undici's request to the subgraph, the subgraph's server span, and its MongoDB reads.
    const outgoing = tree.spans.find(
      (span) => span.kind === CLIENT && tree.parentOf(span) === fetch,
    );
    expect(outgoing?.scope).toBe('@opentelemetry/instrumentation-undici');
    const subgraph = tree.spans.find((span) => tree.parentOf(span) === outgoing);
    expect(subgraph).toMatchObject({ kind: SERVER, attributes: { 'url.path': '/graphql' } });
    const reads = tree.spans.filter((span) => tree.parentOf(span) === subgraph);
    expect(reads).toContainEqual(
      expect.objectContaining({
        scope: '@opentelemetry/instrumentation-mongodb',
        attributes: expect.objectContaining({ 'db.collection.name': 'websites' }),
      }),
    );

    // The facade's own Redis work (the per-minute limit and the monthly quota) is in it too.
    const facadeRedis = tree.spans.filter(
      (span) =>
        span.scope === '@opentelemetry/instrumentation-ioredis' && tree.parentOf(span) === facade,
    );
    expect(facadeRedis.map((span) => span.attributes['db.query.text'])).toContainEqual(
      expect.stringMatching(/:rl:minute:/),
    );
  });

  it('when a GraphQL call to the gateway carries a traceparent, then the subgraph and database spans join its trace', () => {
    expect(recorded.results.gateway).toBe(200);
    const tree = treeOf(recorded.spans, gateway.traceId);
    expect(tree.roots).toHaveLength(1);
    const [entry] = tree.roots;
    expect(entry).toMatchObject({ kind: SERVER, parentSpanId: gateway.parentId });
    const subgraphReads = tree.spans.filter(
      (span) =>
        span.scope === '@opentelemetry/instrumentation-mongodb' &&
        tree.ancestors(span).some((parent) => parent.name === 'gateway.fetch'),
    );
    expect(subgraphReads.map((span) => span.attributes['db.collection.name'])).toContain('users');
  });

  it('when spans are recorded, then no MongoDB statement carries a stored value', () => {
    const statements = recorded.spans
      .filter((span) => span.scope === '@opentelemetry/instrumentation-mongodb')
      .map((span) => String(span.attributes['db.query.text']));
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) expect(statement).not.toMatch(/[0-9a-f]{24}|svc_|wat_/);
  });
});

describe('OTLP export', () => {
  let collector: WebhookReceiver;
  beforeAll(async () => {
    collector = await startWebhookReceiver();
    collector.respondWith({
      status: 200,
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
  });
  afterAll(() => collector.close());

  it('when OTEL_EXPORTER_OTLP_ENDPOINT is set, then a service sends its spans there under its own name, flushed on SIGTERM', async () => {
    const trace = newTraceparent();
    const keys = TestProcess.tsx('subgraphs/keys/src/main.ts', {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      INTERNAL_SECRET: randomBytes(32).toString('hex'),
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: testKeyPrefix(`otlp_${randomBytes(3).toString('hex')}`),
      MONGODB_URI: testMongoUri(`otlp_${randomBytes(3).toString('hex')}`),
      KEYS_PORT: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: new URL(collector.url).origin,
    });
    try {
      const [, url] = await keys.waitForLog(/"url":"([^"]+)","msg":"listening"/, 30_000);
      const answer = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: trace.header },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      await answer.arrayBuffer();
    } finally {
      await keys.stop(5_000);
    }
    expect(keys.child.exitCode).toBe(0);
    // The batch is sent at the latest when the service stops.
    const received = collector.requests.filter((request) => request.path === '/v1/traces');
    expect(received.length).toBeGreaterThan(0);
    expect(received[0]!.headers['content-type']).toContain('application/json');
    const resourceSpans = received.flatMap(
      (request) => (JSON.parse(request.rawBody.toString('utf8')) as OtlpTraces).resourceSpans,
    );
    const names = resourceSpans.map(
      (entry) =>
        entry.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value
          .stringValue,
    );
    expect(names).toContain('keys');
    const spans = resourceSpans.flatMap((entry) =>
      entry.scopeSpans.flatMap((scope) => scope.spans),
    );
    expect(spans).toContainEqual(
      expect.objectContaining({ traceId: trace.traceId, parentSpanId: trace.parentId }),
    );
  }, 60_000);
});

/** The part of an OTLP/JSON trace export the test reads. */
interface OtlpTraces {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: Array<{ traceId: string; spanId: string; parentSpanId?: string }> }>;
  }>;
}
