import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { callApi } from '../support/api-client';
import { graphql, http } from '../support/http';
import { waitFor, waitUntil } from '../support/wait';
import { captureLogs } from '../support/log-capture';
import { expectMatchesOpenApi } from '../support/openapi';
import { startStack, type Stack } from '../support/stack';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findMongoEngine, startEngine } from '../../scripts/lib/engines';
import { waitUntilIdle } from '../support/ingest-idle';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/**
 * A MongoDB engine of the test's own, killed (SIGKILL) and started again on the same port and
 * data, as a crash and restart look to the services. (A TCP proxy cut in between is no stand-in:
 * a driver monitor can hang on a connection the proxy half-closed, which a real restart never does.)
 */
async function startOwnEngine() {
  const engine = findMongoEngine();
  if (!engine) throw new Error('no MongoDB engine: run npm run ferretdb:install');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-outage-'));
  let running = await startEngine(engine, dataDir);
  const port = running.port;
  return {
    uri: `mongodb://127.0.0.1:${port}/`,
    async crash() {
      const exited = once(running.child, 'exit');
      running.child.kill('SIGKILL');
      await exited;
    },
    async restart() {
      running = await startEngine(engine, dataDir, port);
      if (running.port !== port) throw new Error(`port ${port} was taken meanwhile`);
    },
    async stop() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('while MongoDB is unreachable', () => {
  const logs = captureLogs();
  let stack: Stack;
  let engine: Awaited<ReturnType<typeof startOwnEngine>>;
  let crashed = false;
  beforeAll(async () => {
    engine = await startOwnEngine();
    const original = process.env.TEST_MONGODB_URI;
    process.env.TEST_MONGODB_URI = engine.uri; // startStack's databases go to this engine
    try {
      stack = await startStack(
        'mongo-outage',
        { WEBHOOK_WORKERS_ENABLED: 'false', LOG_LEVEL: 'warn', TRACKING_CODE_CACHE_SECONDS: '1' },
        logs.sink,
      );
    } finally {
      process.env.TEST_MONGODB_URI = original;
    }
  });
  afterAll(async () => {
    if (crashed) await engine.restart();
    await stack.stop();
    await engine.stop();
  });

  jest.setTimeout(60_000);
  it('when the database goes away, then each subgraph opens its circuit and reads answer 503 service_unavailable (not 500) and cost no quota, known tracking codes keep collecting, nothing is logged as a bug, and all recovers by itself', async () => {
    const account = await buildAccount(stack, { plan: 'enterprise' });
    const { key, apiKey } = await buildApiKey(stack, account);
    const keyId = apiKey.id;
    const { token } = await buildAccessToken(stack, account.user.id);
    const site = account.websites[0]!;
    const stranger = await buildAccount(stack);
    const collect = (trackingCode: string) =>
      http(`${stack.facade.url}/api/collect`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'user-agent': BROWSER },
        body: JSON.stringify({ trackingCode, type: 'pageview', url: 'https://shop.example/' }),
      });
    const before = await callApi(stack, 'GET', '/usage', { key });
    expect(before.status).toBe(200);
    const monthlyBefore = before.headers.get('x-usage-monthly');
    expect((await collect(site.trackingCode)).status).toBe(202);
    const trackingCodeCached = Date.now(); // or a little earlier, while the beacon was handled
    const errorsBefore = logs.lines.filter((l) => l.includes('"level":"error"')).length;
    // The facade's engine formats the subgraphs' errors; the facade's own line per failed call
    // ('upstream unavailable', with its request id) is another matter.
    const engineWarnings = () =>
      logs.lines.filter(
        (l) =>
          l.includes('"level":"warn"') &&
          l.includes('"service":"rest-facade"') &&
          !l.includes('"msg":"upstream unavailable"'),
      );
    const engineWarningsBefore = engineWarnings().length;

    await engine.crash();
    crashed = true;
    // Each subgraph's circuit opens by itself (its pings fail), so requests are refused at once.
    const circuitLines = (msg: string) =>
      logs.lines
        .filter((l) => l.includes(msg))
        .map((l) => (JSON.parse(l) as { service: string }).service);
    await waitFor(async () => new Set(circuitLines('circuit open')).size === 3);
    expect(new Set(circuitLines('circuit open'))).toEqual(
      new Set(['analytics', 'keys', 'webhooks']),
    );
    // The tracking code's entry is stale now: 1 s to live, and a little for the cache's own clock.
    await waitUntil(trackingCodeCached + 1_050);

    const failedDuringOutage: string[] = [];
    for (const [method, route, body] of [
      ['GET', `/analytics/${site.id}?range=7d`, undefined],
      ['POST', `/query/${site.id}`, { metrics: ['pageviews'], date_range: '7d' }],
    ] as const) {
      const response = await callApi<{ success: boolean; error: { code: string } }>(
        stack,
        method,
        route,
        { key, body },
      );
      expect(response.status).toBe(503);
      failedDuringOutage.push(response.headers.get('x-request-id')!);
      // Failed on our side: the call gave its monthly count back.
      expect(response.headers.get('x-usage-monthly')).toBe(monthlyBefore);
      expect(response.body).toMatchObject({
        success: false,
        error: { code: 'service_unavailable' },
      });
    }
    const hooks = await http(`${stack.facade.url}/v1/cli/mutate/webhooks`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(hooks.status).toBe(503);
    expectMatchesOpenApi('GET', `${stack.facade.url}/v1/cli/mutate/webhooks`, hooks);

    // A batch of calls that cannot be stored fails, so it stays in the stream for a retry; it
    // must not pass for stored (a bulk insert that fails as a whole has an empty writeErrors).
    const unidentifiedCall = {
      at: new Date().toISOString(),
      keyId: null,
      method: 'GET',
      endpoint: '/api/external/v1/usage',
      path: '/api/external/v1/usage',
      status: 401,
      ip: '127.0.0.1',
      durationMs: 1,
      requestId: 'during-the-outage',
    };
    await expect(
      stack.keys.services.callLog.store([
        { id: '1-0', fields: { calls: JSON.stringify([unidentifiedCall]) } },
      ]),
    ).rejects.toThrow();

    const known = await collect(site.trackingCode);
    expect(known.status).toBe(202);
    const unknown = await collect(stranger.websites[0]!.trackingCode);
    expect(unknown.status).toBe(503);
    expect(logs.lines.filter((l) => l.includes('"level":"error"'))).toHaveLength(errorsBefore);
    // Four calls failed through the engine: it says so once per cause, not once per call.
    const warned = engineWarnings()
      .slice(engineWarningsBefore)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(warned.length).toBeGreaterThan(0);
    expect(new Set(warned).size).toBe(warned.length);

    await engine.restart();
    crashed = false;
    // Every 100 ms: each call takes one of the plan's 120 points a minute, even when it fails.
    await waitFor(
      async () =>
        (await callApi(stack, 'GET', `/analytics/${site.id}?range=7d`, { key })).status === 200,
      10_000,
      100,
    );
    // Every circuit closed by itself: the webhooks subgraph answers too.
    await waitFor(
      async () =>
        (
          await http(`${stack.facade.url}/v1/cli/mutate/webhooks`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).status === 200,
    );
    await waitUntilIdle(stack.analytics.services.ingest);
    const overview = await callApi<{ data: { summary: { pageviews: number } } }>(
      stack,
      'GET',
      `/analytics/${site.id}?range=24h`,
      { key },
    );
    expect(overview.body.data.summary.pageviews).toBe(2);

    // The calls answered during the outage were logged: their records, which the keys service
    // could not store then, arrive soon after the database is back, not a claim timeout later.
    const logged = await waitFor(async () => {
      const response = await graphql<{
        apiKey: { calls: { nodes: Array<{ status: number; requestId: string }> } };
      }>(
        stack.gateway.graphqlUrl,
        'query ($id: ID!) { apiKey(id: $id) { calls(first: 100) { nodes { status requestId } } } }',
        { id: keyId },
        { authorization: `Bearer ${token}` },
      );
      const nodes = response.body.data?.apiKey.calls.nodes ?? [];
      const found = nodes.filter((n) => failedDuringOutage.includes(n.requestId));
      return found.length === failedDuringOutage.length && found;
    }, 10_000);
    expect(logged.map((n) => n.status)).toEqual([503, 503]);
  });
});
