/**
 * `npm run bench:analytics`: the analytics store at realistic size, on the embedded default
 * (FerretDB 1.24 with its SQLite backend, from .tools/bin, or MONGODB_URI), in one run:
 *
 *  1. baselines: a bare Node HTTP server and `POST /api/collect`, requests/s;
 *  2. ingestion of scattered traffic (several websites, a long tail of pages, tens of thousands of
 *     visitors, all five event kinds) into an empty database: events applied per second;
 *  3. a year of history, 1,000,000 events and 100,000 visitors on one website and 10,000 events on
 *     another, through the same stream, sealed as it would be in production;
 *  4. the same ingestion again, now beside that history (target: ≥ 1,000 events/s and ≥ 0.8× the
 *     empty rate);
 *  5. every analytics route over 1y, one client, on the 10k and the 1M website (targets: p50 ≤ 25 ms
 *     at 1M and ≤ 1.3× its own p50 at 10k), visitor pages at offset 0 and 90,000 (≤ 100 ms), and a
 *     full walk of the 1M website's visitors (each exactly once, `has_more` exact).
 *
 * All five services run in this process (as the integration tests start them); the last line is
 * one JSON object of the figures.
 *
 *   npm run bench:analytics -- [--history 1000000] [--samples 100]
 */
import autocannon from 'autocannon';
import { Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import { createRedis } from '../common/platform/redis';
import { demoTraffic } from './lib/demo-traffic';
import type { IngestService } from '../subgraphs/analytics/src/services/ingest.service';
import { startStack } from '../test/support/stack';
import { benchAccount } from './lib/bench-account';
import { bareNodeServer } from './lib/bare-node';
import { startBenchDatabase } from './lib/bench-database';
import {
  appendToStream as append,
  enriched,
  p50,
  scatteredTraffic,
  todaysPageviews as today,
  type Site,
} from './lib/bench-traffic';
import { waitUntilIdle, waitUntilSealed } from '../test/support/ingest-idle';

process.env.NODE_ENV ??= 'production';
const options = new Command()
  .option('--history <n>', 'events of history on the large website', Number, 1_000_000)
  .option('--samples <n>', 'requests per route and website', Number, 100)
  .parse()
  .opts<{ history: number; samples: number }>();

const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

async function rps(opts: autocannon.Options): Promise<number> {
  const result = await autocannon({ connections: 20, duration: 5, ...opts });
  return Math.round(result.requests.average);
}

type Figures = Record<string, number | string>;
type Request = { path: string; body?: unknown };

/** What every section of the run shares: the stack, its stream, the key and the figures. */
interface Bench {
  stack: Awaited<ReturnType<typeof startStack>>;
  redis: ReturnType<typeof createRedis>;
  prefix: string;
  ingest: IngestService;
  figures: Figures;
  /** One External API call with the bench's key: its data and how long it took. */
  call(request: Request): Promise<{ ms: number; data: unknown }>;
}

const say = (line: string) => console.log(line);

async function main(): Promise<void> {
  const started = Date.now();
  const database = await startBenchDatabase('wa-bench-');
  process.env.TEST_MONGODB_URI = database.uri;
  process.env.TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  // A year of history is sealed a second after its last event, as production seals each day
  // ten minutes after it went quiet.
  const stack = await startStack('bench', {
    TRUSTED_PROXIES: 'loopback',
    LOG_LEVEL: 'silent',
    ANALYTICS_SEAL_QUIET_SECONDS: '1',
    // What a read costs when it runs: repeated reads would otherwise be answered from the cache
    // (bench:api measures those).
    READ_CACHE: 'off',
    // The hourly look at every website for webhooks' alerts is background work of its own: it
    // would land inside a measurement (docs/benchmarks.md).
    ANALYTICS_ALERTS_ENABLED: 'false',
  });
  const redis = createRedis(stack.env.REDIS_URL!);
  const figures: Figures = {};
  try {
    const { sites, key } = await createSites(stack);
    const bench: Bench = {
      stack,
      redis,
      prefix: stack.env.REDIS_KEY_PREFIX!,
      ingest: stack.analytics.services.ingest,
      figures,
      call: caller(stack, key),
    };
    await measureBaselines(bench, sites.empty[0]!);
    figures.ingest_events_per_s_empty = await measureIngest(
      bench,
      sites.empty,
      'into an empty database',
    );
    const history = await writeHistory(bench, sites.small, sites.large);
    figures.ingest_events_per_s_1m = await measureIngest(bench, sites.beside, 'beside the history');
    say(
      `ingestion beside the history: ${ratio(Number(figures.ingest_events_per_s_1m), Number(figures.ingest_events_per_s_empty))} of the rate into an empty database`,
    );
    await measureRoutes(bench, sites.small, sites.large);
    await measureVisitorPages(bench, sites.large);
    await walkVisitors(bench, sites.large, history);
    await measureReadsAfterBatch(bench, sites.large);
    figures.run_seconds = Math.round((Date.now() - started) / 1000);
    figures.engine = process.env.MONGODB_URI ? 'MONGODB_URI' : 'ferretdb-sqlite';
    console.log(JSON.stringify(figures));
  } finally {
    redis.disconnect();
    await stack.stop();
    await database.stop();
  }
}

/** The websites of the run, in the bench's account, and its API key. */
async function createSites(stack: Bench['stack']) {
  const { key, site } = await benchAccount(stack);
  const empty: Site[] = [];
  const beside: Site[] = [];
  for (let i = 0; i < 4; i += 1) empty.push(await site(`empty-${i}`));
  for (let i = 0; i < 4; i += 1) beside.push(await site(`beside-${i}`));
  const small = await site('small');
  const large = await site('large');
  return { sites: { empty, beside, small, large }, key };
}

function caller(stack: Bench['stack'], key: string): Bench['call'] {
  return async ({ path, body }) => {
    const started = performance.now();
    const response = await fetch(`${stack.facade.url}/api/external/v1${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await response.json()) as { data: unknown };
    if (response.status !== 200)
      throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return { ms: performance.now() - started, data: json.data };
  };
}

/** 1. Baselines: a bare Node server's requests per second, and POST /api/collect's. */
async function measureBaselines(bench: Bench, target: Site): Promise<void> {
  const { figures } = bench;
  const bare = await bareNodeServer();
  const body = JSON.stringify({
    trackingCode: target.trackingCode,
    type: 'pageview',
    url: `https://${target.domain}/`,
  });
  const post = {
    method: 'POST' as const,
    body,
    headers: { 'content-type': 'text/plain', 'user-agent': UA },
  };
  figures.bare_node_rps = await rps({ url: bare.url, ...post });
  await bare.close();
  let n = 0;
  figures.collect_rps = await rps({
    url: `${bench.stack.facade.url}/api/collect`,
    ...post,
    // Each request from another client IP (the stack trusts loopback), so the per-IP limit of
    // collection does not answer instead of the route.
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: {
            ...req.headers,
            'x-forwarded-for': `11.${(n >> 8) & 255}.${(n += 1) & 255}.1`,
          },
        }),
      },
    ],
  });
  say(
    `bare Node server ${figures.bare_node_rps} req/s; POST /api/collect ${figures.collect_rps} req/s (${ratio(Number(figures.collect_rps), Number(figures.bare_node_rps))})`,
  );
  await waitUntilIdle(bench.ingest, 120_000);
}

/** 2. and 4. Ingestion of scattered traffic, timed from the first append to the last applied. */
async function measureIngest(bench: Bench, sites: Site[], label: string): Promise<number> {
  const events = scatteredTraffic(sites);
  const visitors = new Set(events.map((e) => `${e.websiteId} ${e.visitorId}`)).size;
  const pages = new Set(events.map((e) => `${e.websiteId} ${e.path}`)).size;
  const kinds = new Set(events.map((e) => e.type)).size;
  const start = performance.now();
  await append(bench.redis, bench.prefix, events);
  await waitUntilIdle(bench.ingest, 600_000);
  const rate = Math.round(events.length / ((performance.now() - start) / 1000));
  say(
    `ingestion ${label}: ${events.length} events (${kinds} kinds, ${visitors} visitors, ${pages} distinct pages, ${sites.length} websites) applied at ${rate} events/s`,
  );
  return rate;
}

/** The large website's history: its events' visitors, for the walk. */
interface History {
  visitorIds: Set<string>;
}

/** 3. A year of history on the small and the large website, through the stream, then sealed. */
async function writeHistory(bench: Bench, small: Site, large: Site): Promise<History> {
  const now = Date.now();
  const year = (target: Site, visitorsPerDay: number, seed: number) =>
    enriched(
      target,
      demoTraffic({
        trackingCode: target.trackingCode,
        host: target.domain,
        days: 365,
        visitorsPerDay,
        now,
        seed,
        pages: 5_000,
        pagesPerVisit: 6.5,
        replayShare: 0.02,
      }),
    );
  const scale = options.history / 1_000_000;
  const history = [
    ...year(small, Math.max(1, Math.round(3 * scale)), 7),
    ...year(large, Math.round(340 * scale), 8),
  ].sort((a, b) => a.ts - b.ts);
  const largeEvents = history.filter((e) => e.websiteId === large.id);
  const smallEvents = history.length - largeEvents.length;
  const visitorIds = new Set(largeEvents.map((e) => e.visitorId));
  const bar = new SingleBar(
    { format: 'history |{bar}| {value}/{total} events appended' },
    Presets.shades_classic,
  );
  bar.start(history.length, 0);
  const historyStart = performance.now();
  await append(bench.redis, bench.prefix, history, bar);
  bar.stop();
  await waitUntilIdle(bench.ingest, 1_800_000);
  const applied = performance.now();
  await waitUntilSealed(bench.ingest, 600_000);
  say(
    `history: ${largeEvents.length} events and ${visitorIds.size} visitors on the large website, ${smallEvents} on the small one; applied in ${seconds(applied - historyStart)}, sealed ${seconds(performance.now() - applied)} later`,
  );
  bench.figures.history_events = largeEvents.length;
  bench.figures.history_visitors = visitorIds.size;
  return { visitorIds };
}

const ROUTES: Array<[string, (id: string) => Request]> = [
  ['overview', (id) => ({ path: `/analytics/${id}?range=1y` })],
  ['visitors', (id) => ({ path: `/analytics/${id}/visitors?range=1y` })],
  ['countries', (id) => ({ path: `/analytics/${id}/countries?range=1y` })],
  ['pages', (id) => ({ path: `/analytics/${id}/pages?range=1y` })],
  ['sources', (id) => ({ path: `/analytics/${id}/sources?range=1y` })],
  ['technology', (id) => ({ path: `/analytics/${id}/technology?range=1y` })],
  ['heatmaps', (id) => ({ path: `/heatmaps/${id}/pages?range=1y` })],
  // Pages of 10: the small website's year holds about 22 sessions, and a page of 100 would weigh
  // 22 sessions against 100 rather than a small website against a large one.
  ['replays', (id) => ({ path: `/replays/${id}/sessions?range=1y&limit=10` })],
  ['errors', (id) => ({ path: `/errors/${id}/groups?range=1y` })],
  [
    'query',
    (id) => ({
      path: `/query/${id}`,
      body: {
        metrics: ['visitors', 'pageviews', 'bounce_rate'],
        dimensions: ['page'],
        date_range: '1y',
        limit: 10,
      },
    }),
  ],
];

/** p50 of each request, the requests taking turns so the machine's drift hits them alike. */
async function timeTogether(bench: Bench, ...requests: Request[]): Promise<number[]> {
  for (const request of requests) for (let i = 0; i < 5; i += 1) await bench.call(request); // warm-up
  const samples = requests.map((): number[] => []);
  for (let i = 0; i < options.samples; i += 1)
    for (const [j, request] of requests.entries()) samples[j]!.push((await bench.call(request)).ms);
  return samples.map(p50);
}

/** 5. Reads: every route on the small website and the large one, and the slowest at 1M. */
async function measureRoutes(bench: Bench, small: Site, large: Site): Promise<void> {
  const { figures } = bench;
  say(
    '\n| route (range 1y, 1 client) | p50 at 10k events | p50 at 1M events | 1M / 10k |\n|---|---|---|---|',
  );
  let slowest = { name: '', p50: 0 };
  for (const [name, request] of ROUTES) {
    const [at10k, at1m] = (await timeTogether(bench, request(small.id), request(large.id))) as [
      number,
      number,
    ];
    say(`| ${name} | ${at10k} ms | ${at1m} ms | ${ratio(at1m, at10k)} |`);
    figures[`${name}_p50_10k`] = at10k;
    figures[`${name}_p50_1m`] = at1m;
    if (at1m > slowest.p50) slowest = { name, p50: at1m };
  }
  figures.slowest_route_p50_1m = slowest.p50;
  figures.slowest_route_name = slowest.name;
}

/** Visitor pages of 100, at the start and 90,000 visitors in. */
async function measureVisitorPages(bench: Bench, large: Site): Promise<void> {
  const { figures } = bench;
  const page = (offset: number) => ({
    path: `/analytics/${large.id}/visitors?range=1y&limit=100&offset=${offset}`,
  });
  [figures.visitors_p50_offset0, figures.visitors_p50_offset90000] = (await timeTogether(
    bench,
    page(0),
    page(90_000),
  )) as [number, number];
  say(
    `\nvisitor pages of 100 on the large website: offset 0 p50 ${figures.visitors_p50_offset0} ms, offset 90,000 p50 ${figures.visitors_p50_offset90000} ms`,
  );
}

/** A full walk: every visitor of the year exactly once, has_more false on the last page only. */
async function walkVisitors(bench: Bench, large: Site, history: History): Promise<void> {
  const seen = new Set<string>();
  let pages = 0;
  let duplicates = 0;
  let hasMoreWrong = 0;
  const total = history.visitorIds.size;
  for (let offset = 0; ; offset += 1_000) {
    const { data } = await bench.call({
      path: `/analytics/${large.id}/visitors?range=1y&limit=1000&offset=${offset}`,
    });
    const { visitors, pagination } = data as {
      visitors: Array<{ id: string }>;
      pagination: { has_more: boolean };
    };
    pages += 1;
    for (const v of visitors) {
      if (seen.has(v.id)) duplicates += 1;
      seen.add(v.id);
    }
    if (pagination.has_more !== offset + 1_000 < total) hasMoreWrong += 1;
    if (!pagination.has_more) break;
  }
  const missing = [...history.visitorIds].filter((id) => !seen.has(id)).length;
  bench.figures.visitors_walk_missing = missing;
  bench.figures.visitors_walk_duplicates = duplicates;
  bench.figures.visitors_walk_has_more_wrong = hasMoreWrong;
  say(
    `full walk of ${total} visitors in ${pages} pages of 1,000: ${missing} missing, ${duplicates} twice, has_more wrong on ${hasMoreWrong} pages`,
  );
}

/**
 * Reads between batches reuse what the hot tier last returned; a read right after a batch that
 * touched the website reads and merges its hot days again: measured apart.
 */
async function measureReadsAfterBatch(bench: Bench, large: Site): Promise<void> {
  const fresh = today(large, 30 * 50, 9);
  const afterBatch: number[] = [];
  for (let i = 0; i < 30; i += 1) {
    await append(bench.redis, bench.prefix, fresh.slice(i * 50, (i + 1) * 50));
    await waitUntilIdle(bench.ingest, 60_000);
    afterBatch.push((await bench.call(ROUTES[3]![1](large.id))).ms);
  }
  bench.figures.pages_p50_after_batch_1m = p50(afterBatch);
  say(
    `pages on the large website, read right after a batch of 50 events for it: p50 ${bench.figures.pages_p50_after_batch_1m} ms`,
  );
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
