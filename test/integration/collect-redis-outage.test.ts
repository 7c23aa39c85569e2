import { createLogger } from '../../common/platform/logger';
import { createRedis, waitForRedis, type RedisClient } from '../../common/platform/redis';
import { startFacade, type RunningFacade } from '../../rest-facade/src/app';
import {
  COLLECT_RETRY_AFTER_SECONDS,
  CollectedEventWriter,
} from '../../rest-facade/src/collect/collected-event.writer';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import { analyticsEventStream, type CollectedEvent } from '../../common/contracts/collected-event';
import { http } from '../support/http';
import { captureLogs } from '../support/log-capture';
import { expectMatchesOpenApi } from '../support/openapi';
import { deleteKeysMatching } from '../support/redis';
import { startStack, type Stack } from '../support/stack';
import { startTcpProxy } from '../support/tcp-proxy';
import { waitFor } from '../support/wait';
import { analyticsAccount, api, UA } from './analytics-helpers';
import { waitUntilIdle } from '../support/ingest-idle';

type Envelope<T> = { success: boolean; data: T };
type Overview = { summary: { pageviews: number } };
type VisitorList = { visitors: Array<{ last_seen: string }> };

const HOLDING = 'redis cannot take collected events: holding them until it is back';
const APPENDED = 'held collected events appended: redis is back';
const LOST = 'collected events lost at stop: redis did not take them';

describe('POST /api/collect while Redis is unavailable', () => {
  let stack: Stack;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let redisCut = false;
  const facades = new Set<RunningFacade>();

  beforeAll(async () => {
    stack = await startStack('collect-redis-outage');
    const redisUrl = new URL(stack.env.REDIS_URL!);
    proxy = await startTcpProxy(Number(redisUrl.port || 6379), redisUrl.hostname);
  });
  afterEach(async () => {
    if (redisCut) await restoreRedis();
  });
  afterAll(async () => {
    for (const facade of facades) await facade.stop();
    await proxy.close().catch(() => undefined);
    await stack.stop();
  });

  /** A facade of its own whose Redis connection goes through the proxy; its logs (info and up) are kept. */
  async function facadeBehindProxy(env: Record<string, string> = {}) {
    const logs = captureLogs();
    const facade = await startFacade(
      loadFacadeConfig({
        ...stack.env,
        ...stack.subgraphEnv,
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
        ...env,
      }),
      createLogger('rest-facade', 'info', logs.sink),
    );
    facades.add(facade);
    return { facade, lines: logs.records };
  }

  /** Cuts Redis off the facades behind the proxy; resolves once `facade` has noticed. */
  async function cutRedis(facade: RunningFacade) {
    await proxy.cut();
    redisCut = true;
    await waitFor(async () => facade.deps.redis.status !== 'ready');
  }

  async function restoreRedis() {
    await proxy.restore();
    redisCut = false;
  }

  async function pageview(facade: RunningFacade, trackingCode: string, path = '/') {
    const response = await http<{ accepted?: boolean; success?: boolean }>(
      `${facade.url}/api/collect`,
      {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'user-agent': UA.chromeWindows },
        body: JSON.stringify({
          trackingCode,
          type: 'pageview',
          url: `https://shop.example${path}`,
        }),
      },
    );
    expectMatchesOpenApi('POST', '/api/collect', response);
    return response;
  }

  async function pageviewsOf(websiteId: string, key: string) {
    const overview = await api<Envelope<Overview>>(stack, key, `/analytics/${websiteId}?range=24h`);
    expect(overview.status).toBe(200);
    return overview.body.data.summary.pageviews;
  }

  it('DATA-6: when Redis is cut, then page views of a code never looked up are answered 202, held, and counted once each with their acceptance time when it is back; one warning and one info line for the outage', async () => {
    const { facade, lines } = await facadeBehindProxy();
    const { account, key } = await analyticsAccount(stack);
    const site = account.websites[0]!;
    await cutRedis(facade);

    const sent = 12;
    const statuses: number[] = [];
    for (let n = 0; n < sent; n += 1)
      statuses.push((await pageview(facade, site.trackingCode, `/page-${n}`)).status);
    expect(statuses).toEqual(Array.from({ length: sent }, () => 202));

    // Taken after the last 202: held events reach Redis only after it is restored and ioredis has
    // reconnected, so a stamp taken when they were appended would be later than this.
    const lastAcceptedAt = Date.now();
    await restoreRedis();
    const apiKey = await key();
    await waitFor(async () => (await pageviewsOf(site.id, apiKey)) === sent, 20_000);
    await waitUntilIdle(stack.analytics.services.ingest);
    expect(await pageviewsOf(site.id, apiKey)).toBe(sent);
    // Timestamps are taken when the events were accepted, not when Redis took them.
    const visitors = await api<Envelope<VisitorList>>(
      stack,
      apiKey,
      `/analytics/${site.id}/visitors?range=24h`,
    );
    expect(visitors.status).toBe(200);
    expect(visitors.body.data.visitors).toHaveLength(1);
    expect(Date.parse(visitors.body.data.visitors[0]!.last_seen)).toBeLessThanOrEqual(
      lastAcceptedAt,
    );

    const appended = await waitFor(async () => lines().find((line) => line.msg === APPENDED));
    expect(appended).toMatchObject({ level: 'info', events: sent, refused: 0 });
    expect(appended.heldMs).toEqual(expect.any(Number));
    const holding = lines().filter((line) => line.msg === HOLDING);
    expect(holding).toHaveLength(1);
    expect(holding[0]).toMatchObject({ level: 'warn', reason: expect.any(String) });
    // Nothing per event: no 5xx logged, no error, no stack.
    expect(lines().filter((line) => line.level === 'error')).toEqual([]);
    expect(lines().filter((line) => line.msg === 'upstream unavailable')).toEqual([]);
    expect(lines().filter((line) => JSON.stringify(line).includes('"stack":'))).toEqual([]);
  });

  it('EVENTS-2: when Redis is cut, then a server-side batch with idempotency keys is refused with 503 and Retry-After and nothing of it counts, one without keys is held and counted; the keyed batch sent again once Redis is back counts once', async () => {
    const { facade } = await facadeBehindProxy();
    const { account, key } = await analyticsAccount(stack);
    const site = account.websites[0]!;
    const apiKey = await key();
    const events = (prefix: string, keyed: boolean) =>
      Array.from({ length: 3 }, (_, n) => ({
        type: 'pageview',
        url: `https://shop.example/${prefix}-${n}`,
        ip: '81.2.69.142',
        user_agent: UA.chromeWindows,
        ...(keyed ? { idempotency_key: `${prefix}-${n}` } : {}),
      }));
    const send = async (batch: unknown[]) => {
      const url = `${facade.url}/api/events`;
      const response = await http<{ success: boolean; data?: { accepted: number } }>(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ website_id: site.id, events: batch }),
      });
      expectMatchesOpenApi('POST', url, response);
      return response;
    };
    // The key is known to this facade before the cut, as it would be for a sender that is sending.
    expect((await send(events('before', false))).status).toBe(202);
    await cutRedis(facade);

    const keyed = await send(events('keyed', true));
    expect(keyed.status).toBe(503);
    expect(keyed.headers.get('retry-after')).toBe(String(COLLECT_RETRY_AFTER_SECONDS));
    const unkeyed = await send(events('unkeyed', false));
    expect([unkeyed.status, unkeyed.body.data?.accepted]).toEqual([202, 3]);

    await restoreRedis();
    await waitFor(async () => (await pageviewsOf(site.id, apiKey)) === 6, 20_000);
    await waitUntilIdle(stack.analytics.services.ingest);
    expect(await pageviewsOf(site.id, apiKey)).toBe(6);
    const again = await send(events('keyed', true));
    expect([again.status, again.body.data?.accepted]).toEqual([202, 3]);
    expect((await send(events('keyed', true))).body.data?.accepted).toBe(0);
    await waitFor(async () => (await pageviewsOf(site.id, apiKey)) === 9, 20_000);
    await waitUntilIdle(stack.analytics.services.ingest);
    expect(await pageviewsOf(site.id, apiKey)).toBe(9);
  });

  it('DATA-6: when more events arrive than COLLECT_BUFFER_EVENTS while Redis is cut, then the one past the bound gets 503 with Retry-After in the JSON envelope, and the held ones are counted', async () => {
    const { facade, lines } = await facadeBehindProxy({ COLLECT_BUFFER_EVENTS: '3' });
    const { account, key } = await analyticsAccount(stack);
    const site = account.websites[0]!;
    await cutRedis(facade);

    for (let n = 0; n < 3; n += 1)
      expect((await pageview(facade, site.trackingCode, `/held-${n}`)).status).toBe(202);
    const refused = await pageview(facade, site.trackingCode, '/refused');
    expect((await pageview(facade, site.trackingCode, '/refused-too')).status).toBe(503);
    expect(refused.status).toBe(503);
    // The outage was reported once when holding began; refused beacons add no line each.
    expect(lines().filter((line) => line.msg === 'upstream unavailable')).toEqual([]);
    expect(refused.headers.get('retry-after')).toBe(String(COLLECT_RETRY_AFTER_SECONDS));
    expect(refused.body).toEqual({
      success: false,
      error: {
        code: 'service_unavailable',
        message: expect.stringContaining(`retry in ${COLLECT_RETRY_AFTER_SECONDS} seconds`),
        timestamp: expect.any(String),
      },
    });

    await restoreRedis();
    const apiKey = await key();
    await waitFor(async () => (await pageviewsOf(site.id, apiKey)) === 3, 20_000);
    const appended = await waitFor(async () => lines().find((line) => line.msg === APPENDED));
    expect(appended).toMatchObject({ events: 3, refused: 2 });
  });

  it('DATA-6: when the facade stops while Redis is cut, then it warns once with the count of held events it could not append', async () => {
    const { facade, lines } = await facadeBehindProxy();
    const { account } = await analyticsAccount(stack);
    await cutRedis(facade);
    for (let n = 0; n < 2; n += 1)
      expect((await pageview(facade, account.websites[0]!.trackingCode)).status).toBe(202);

    facades.delete(facade);
    await facade.stop();

    const lost = lines().filter((line) => line.msg === LOST);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ level: 'warn', events: 2 });
  });

  describe('the writer, when an append fails', () => {
    let redis: RedisClient;
    const prefix = () => `${stack.env.REDIS_KEY_PREFIX}writer:`;
    const event = (path: string): CollectedEvent => ({
      websiteId: 'w-writer',
      ts: Date.now(),
      path,
      visitorId: 'v-writer',
      country: null,
      device: 'desktop',
      browser: null,
      os: null,
      screenWidth: null,
      screenHeight: null,
      type: 'pageview',
      referrer: null,
      source: 'direct',
    });
    const entries = async () =>
      (await redis.xrange(analyticsEventStream(prefix()), '-', '+')).map(
        ([, fields]) => (JSON.parse(fields[1]!) as CollectedEvent).path,
      );

    beforeAll(async () => {
      redis = createRedis(stack.env.REDIS_URL!);
      await waitForRedis(redis);
    });
    afterEach(async () => {
      await deleteKeysMatching(redis, `${prefix()}*`);
    });
    afterAll(() => redis.disconnect());

    /**
     * The real client, except that the next append fails without an answer: after it ran
     * (`landed`: the answer was lost on the way back) or before (it never reached Redis).
     */
    function failingOnce(landed: boolean): RedisClient {
      let failed = false;
      return new Proxy(redis, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property);
          if (typeof value !== 'function') return value;
          if (property !== 'waOutboxAppend') return value.bind(target);
          return async (...args: unknown[]) => {
            const append = () =>
              (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            if (failed) return append();
            failed = true;
            if (landed) await append();
            throw new Error('Connection is closed.');
          };
        },
      });
    }

    it.each([
      ['after it ran (its answer lost)', true],
      ['before it ran', false],
    ])(
      'DATA-6: %s, then each event is in the stream once, in order, and the requests were answered',
      async (_when, landed) => {
        const logs = captureLogs();
        const writer = new CollectedEventWriter(
          failingOnce(landed),
          prefix(),
          createLogger('rest-facade', 'info', logs.sink),
          10,
        );
        await Promise.all([writer.append(event('/first')), writer.append(event('/second'))]);
        await writer.append(event('/third'));

        await waitFor(async () => logs.lines.some((line) => line.includes(APPENDED)));
        expect(await entries()).toEqual(['/first', '/second', '/third']);
        await writer.close();
      },
    );
  });
});
