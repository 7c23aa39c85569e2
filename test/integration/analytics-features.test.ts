import { announceReadChange, siteTag } from '../../common/contracts/read-cache';
import { openTestRedis } from '../support/redis';
import { HotKeys, dayKeyOf, dayMarker } from '../../subgraphs/analytics/src/store/hot-keys';
import { startStack, type Stack } from '../support/stack';
import { analyticsAccount, api, collect, IP, publicGet, UA } from './analytics-helpers';
import { waitUntilIdle } from '../support/ingest-idle';

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };
type Pagination = { limit: number; offset: number; has_more: boolean };
type VisitorsData = {
  visitors: Array<{ id: string; country: string | null; last_seen: string; pageviews: number }>;
  pagination: Pagination;
};

const VISITORS = 7;
const visitorIp = (i: number) => `198.51.100.${i + 1}`;

describe('analytics: visitors paging, live visitors, heatmaps, replays and errors', () => {
  let stack: Stack;
  let site: { id: string; trackingCode: string };
  let key: () => Promise<string>;
  const page = (path: string) => `https://docs.example${path}`;

  beforeAll(async () => {
    stack = await startStack('analytics-features', { TRUSTED_PROXIES: 'loopback' });
    const fixture = await analyticsAccount(stack);
    site = fixture.account.websites[0]!;
    key = fixture.key;
    const t = site.trackingCode;
    for (let i = 0; i < VISITORS; i += 1) {
      // The trusted proxy's country header wins over GeoIP.
      const response = await collect(
        stack,
        { ip: visitorIp(i), ua: UA.firefoxLinux },
        { trackingCode: t, type: 'pageview', url: page(`/doc/${i}`) },
        { 'cf-ipcountry': 'DE' },
      );
      expect(response.status).toBe(202);
    }
    const a = { ip: IP.us, ua: UA.chromeWindows };
    const b = { ip: IP.gb, ua: UA.safariIphone };
    const click = (x: number, y: number) => ({
      trackingCode: t,
      type: 'click',
      url: page('/pricing'),
      x,
      y,
      viewport: { width: 1000, height: 800 },
    });
    const failure = (message: string) => ({
      trackingCode: t,
      type: 'error',
      url: page('/app'),
      message,
      stack: `Error: ${message}\n    at render (https://docs.example/app.js:10:5)`,
    });
    const sent = [
      await collect(stack, a, click(100, 20)),
      await collect(stack, a, click(105, 30)),
      await collect(stack, b, click(900, 700)),
      await collect(stack, a, failure('x is undefined')),
      await collect(stack, b, failure('x is undefined')),
      await collect(stack, b, failure('y is not a function')),
      await collect(stack, a, {
        trackingCode: t,
        type: 'replay',
        url: page('/app'),
        sessionId: 'session-0001',
        sequence: 0,
        events: [{ type: 4, title: 'Grüße €' }],
      }),
      await collect(stack, a, {
        trackingCode: t,
        type: 'replay',
        url: page('/app'),
        sessionId: 'session-0001',
        sequence: 1,
        events: [{ type: 3 }, { type: 3 }],
      }),
    ];
    expect(sent.map((r) => r.status)).toEqual(sent.map(() => 202));
    await waitUntilIdle(stack.analytics.services.ingest);
  });
  afterAll(() => stack.stop());

  it('DATA-4: when a client walks offset += limit until has_more is false, then it sees every visitor exactly once in a stable order', async () => {
    const k = await key();
    const seen: string[] = [];
    const flags: boolean[] = [];
    for (let offset = 0; ; offset += 3) {
      const response = await api<Envelope<VisitorsData>>(
        stack,
        k,
        `/analytics/${site.id}/visitors?limit=3&offset=${offset}`,
      );
      expect(response.status).toBe(200);
      expect(response.body.data.pagination).toMatchObject({ limit: 3, offset });
      seen.push(...response.body.data.visitors.map((v) => v.id));
      flags.push(response.body.data.pagination.has_more);
      if (!response.body.data.pagination.has_more) break;
    }
    // 7 page-view visitors plus the 2 visitors who only clicked, failed and recorded.
    expect(seen).toHaveLength(VISITORS + 2);
    expect(new Set(seen).size).toBe(VISITORS + 2);
    expect(flags).toEqual([true, true, false]);
    const all = await api<Envelope<VisitorsData>>(
      stack,
      k,
      `/analytics/${site.id}/visitors?limit=1000`,
    );
    expect(all.body.data.visitors.map((v) => v.id)).toEqual(seen);
    expect(all.body.data.visitors.filter((v) => v.pageviews === 1).map((v) => v.country)).toEqual(
      Array(VISITORS).fill('DE'),
    );
  });

  it('DATA-6: when an offset is past the end, then visitors is empty and has_more is false', async () => {
    const response = await api<Envelope<VisitorsData>>(
      stack,
      await key(),
      `/analytics/${site.id}/visitors?offset=500`,
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      visitors: [],
      pagination: { limit: 100, offset: 500, has_more: false },
    });
  });

  it('DATA-6: when clicks were collected, then heatmap pages list clicks, visitors and the busiest cells, ten pages unless asked', async () => {
    const response = await api<
      Envelope<{
        pages: Array<{
          path: string;
          clicks: number;
          visitors: number;
          cells: Array<{ x: number; y: number; clicks: number }>;
        }>;
        pagination: Pagination;
      }>
    >(stack, await key(), `/heatmaps/${site.id}/pages?range=24h`);
    expect(response.status).toBe(200);
    expect(response.body.data.pages).toEqual([
      {
        path: '/pricing',
        clicks: 3,
        visitors: 2,
        cells: [
          { x: 10, y: 0, clicks: 2 },
          { x: 90, y: 14, clicks: 1 },
        ],
      },
    ]);
    expect(response.body.data.pagination).toEqual({ limit: 10, offset: 0, has_more: false });
  });

  it('DATA-6: when errors were collected, then error groups count occurrences and affected visitors per fingerprint', async () => {
    const response = await api<
      Envelope<{
        groups: Array<{
          message: string;
          occurrences: number;
          affected_visitors: number;
          total_occurrences: number;
          last_page: string;
        }>;
      }>
    >(stack, await key(), `/errors/${site.id}/groups`);
    expect(response.status).toBe(200);
    expect(
      response.body.data.groups.map(
        ({ message, occurrences, affected_visitors, total_occurrences, last_page }) => ({
          message,
          occurrences,
          affected_visitors,
          total_occurrences,
          last_page,
        }),
      ),
    ).toEqual([
      {
        message: 'x is undefined',
        occurrences: 2,
        affected_visitors: 2,
        total_occurrences: 2,
        last_page: '/app',
      },
      {
        message: 'y is not a function',
        occurrences: 1,
        affected_visitors: 1,
        total_occurrences: 1,
        last_page: '/app',
      },
    ]);
  });

  it('DATA-6: when replay chunks were collected, then the session is listed with its chunk count', async () => {
    const response = await api<
      Envelope<{
        sessions: Array<{ id: string; chunks: number; entry_page: string; browser: string }>;
        pagination: Pagination;
      }>
    >(stack, await key(), `/replays/${site.id}/sessions?range=30d`);
    expect(response.status).toBe(200);
    expect(
      response.body.data.sessions.map(({ id, chunks, entry_page, browser }) => ({
        id,
        chunks,
        entry_page,
        browser,
      })),
    ).toEqual([{ id: 'session-0001', chunks: 2, entry_page: '/app', browser: 'Chrome' }]);
  });

  it('DATA-6: when a replay chunk is sent again, then the session counts it once; a byte count past 2^31 does not break the list', async () => {
    const resent = await collect(
      stack,
      { ip: IP.us, ua: UA.chromeWindows },
      {
        trackingCode: site.trackingCode,
        type: 'replay',
        url: page('/app'),
        sessionId: 'session-0001',
        sequence: 1,
        events: [{ type: 3 }, { type: 3 }],
      },
    );
    expect(resent.status).toBe(202);
    await waitUntilIdle(stack.analytics.services.ingest);
    const k = await key();
    const list = () =>
      api<Envelope<{ sessions: Array<{ chunks: number; bytes: number }> }>>(
        stack,
        k,
        `/replays/${site.id}/sessions?range=30d`,
      );

    const counted = await list();
    expect(counted.status).toBe(200);
    // UTF-8 bytes, not characters: the first chunk holds ü, ß and €.
    const bytes =
      Buffer.byteLength(JSON.stringify([{ type: 4, title: 'Grüße €' }])) +
      Buffer.byteLength(JSON.stringify([{ type: 3 }, { type: 3 }]));
    expect(counted.body.data.sessions.map((s) => ({ chunks: s.chunks, bytes: s.bytes }))).toEqual([
      { chunks: 2, bytes },
    ]);

    // A session past 2^31 bytes, made by editing its stored state (it takes 2 GiB of chunks).
    const redis = await openTestRedis(stack.env.REDIS_URL!);
    try {
      const keys = new HotKeys(stack.env.REDIS_KEY_PREFIX!);
      const day = dayKeyOf(Date.now());
      const key = keys.replays(site.id, day);
      const state = JSON.parse((await redis.hget(key, 'session-0001'))!) as { bytes: number };
      await redis.hset(key, 'session-0001', JSON.stringify({ ...state, bytes: 3 * 2 ** 30 }));
      // A change of the day, as a batch would mark it (reads keep a day's answers until then),
      // and announced to the read cache as an applied batch is.
      await redis.set(keys.marker(site.id, day), dayMarker(Date.now(), 'test-edit'));
      await announceReadChange(redis, stack.env.REDIS_KEY_PREFIX!, siteTag(site.id));
    } finally {
      redis.disconnect();
    }
    const huge = await list();
    expect(huge.status).toBe(200);
    expect(huge.body.data.sessions[0]?.bytes).toBe(2 ** 31 - 1);
  });

  describe('GET /live/{trackingCode}', () => {
    it('SURF-4: when visitors were active in the last five minutes, then the count comes back without any key, CORS open and briefly cacheable', async () => {
      const response = await publicGet<
        Envelope<{ visitors: number; window_seconds: number; tracking_code: string }>
      >(stack, `/live/${site.trackingCode}`);
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body.data).toEqual({
        tracking_code: site.trackingCode,
        visitors: VISITORS + 2,
        window_seconds: 300,
      });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('cache-control')).toBe('public, max-age=10');
    });

    it('SURF-4: when the tracking code is unknown, then 404 unknown_tracking_code', async () => {
      const response = await publicGet<Envelope<unknown>>(stack, '/live/wa-nosuchcode');
      expect(response.status).toBe(404);
      expect(response.body.error?.code).toBe('unknown_tracking_code');
    });

    it('SURF-4: when one IP asks more than 60 times a minute, then 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
      const headers = { 'x-forwarded-for': '192.0.2.77' };
      const statuses: number[] = [];
      for (let i = 0; i < 60; i += 1)
        statuses.push((await publicGet(stack, `/live/${site.trackingCode}`, headers)).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const limited = await publicGet<Envelope<unknown>>(
        stack,
        `/live/${site.trackingCode}`,
        headers,
      );
      expect(limited.status).toBe(429);
      expect(limited.body.error?.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
});
