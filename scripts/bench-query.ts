/**
 * `npm run bench:query`: POST /query at size, on the embedded default (FerretDB 1.24 with its
 * SQLite backend, from .tools/bin, or MONGODB_URI), in one run:
 *
 *  1. ingestion into an empty database: events applied per second (the baseline);
 *  2. history in bulk, written as sealing writes it: 10,000,000 events over 90 days on one website
 *     and 100,000 on another (≥ 30,000 distinct pages, UTM parameters, properties, revenue), each
 *     day one block in `analytics_blocks_YYYYMM` under a snapshot id the website's day index names;
 *  3. the same ingestion again, beside that history (target: ≥ 2,000 events/s, ≥ 0.8× the empty
 *     rate);
 *  4. four questions through the External API (facade, its gateway engine, the analytics
 *     subgraph, DuckDB), one client, p50 of --samples after a warm-up, at 10M and at 100k events
 *     (targets: ≤ 150 ms and ≤ 25 ms);
 *  5. the first question's statement run on DuckDB directly, over a table of the same blocks: the
 *     engine's floor, and the service's overhead over it (target ≤ 1.5×);
 *  6. a day of 20,000 distinct pages through the stream, ranked by POST /query and by
 *     GET /analytics/:id/pages: exact or not;
 *  7. `npm run bench:analytics` (every existing route at 1M events): its slowest route's p50.
 *
 * The last line is one JSON object of the figures.
 *
 *   npm run bench:query -- [--events 10000000] [--samples 30] [--skip-routes]
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import mongoose, { Types } from 'mongoose';
import { createRedis } from '../common/platform/redis';
import type { CollectedEvent } from '../common/contracts/collected-event';
import { readQueryBody, type QueryBodyInput } from '../rest-facade/src/routes/query-body';
import { BlockCodec } from '../subgraphs/analytics/src/engine/blocks';
import { Duck } from '../subgraphs/analytics/src/engine/duck';
import { queryWithKeys, resolveKeys } from '../subgraphs/analytics/src/engine/dictionary';
import { createEventTable } from '../subgraphs/analytics/src/engine/event-table';
import { SealedBlocks } from '../subgraphs/analytics/src/engine/sealed-blocks';
import {
  compileStatsQuery,
  type GoalDefinition,
} from '../subgraphs/analytics/src/engine/stats-sql';
import { DAY_MS, floorDay } from '../subgraphs/analytics/src/ingest/time-buckets';
import type { IngestService } from '../subgraphs/analytics/src/services/ingest.service';
import { spanOf } from '../subgraphs/analytics/src/services/stats-query.service';
import { DayIndexStore, emptyDay } from '../subgraphs/analytics/src/store/day-index';
import { HotKeys, type DayKey } from '../subgraphs/analytics/src/store/hot-keys';
import { generateEventRows } from '../test/support/event-rows-dataset';
import { startStack, testMongoUri } from '../test/support/stack';
import {
  appendToStream,
  p50,
  scatteredTraffic,
  todaysPageviews,
  type Site,
} from './lib/bench-traffic';
import { benchAccount } from './lib/bench-account';
import { startBenchDatabase } from './lib/bench-database';
import { waitUntilIdle } from '../test/support/ingest-idle';

process.env.NODE_ENV ??= 'production';
const options = new Command()
  .option('--events <n>', 'events of history on the large website', Number, 10_000_000)
  .option('--samples <n>', 'requests per question and website', Number, 30)
  .option('--skip-routes', 'do not run bench:analytics for the existing routes')
  .parse()
  .opts<{ events: number; samples: number; skipRoutes?: boolean }>();

const HISTORY_DAYS = 90;
/** Events per generated visitor (visits × page views, and custom events): about 3.9. */
const EVENTS_PER_VISITOR = 3.9;
const GOALS: GoalDefinition[] = [
  { name: 'Signup', kind: 'event', pagePath: null, eventName: 'Signup', currency: null },
];

/** The questions of the issue, as a customer sends them. */
const QUESTIONS: Record<string, QueryBodyInput> = {
  breakdown2_filter3_30d: {
    metrics: ['visitors', 'pageviews'],
    dimensions: ['page', 'country'],
    filters: [
      ['is', 'device', ['mobile', 'tablet']],
      ['contains', 'source', ['goo', 'news']],
      ['is_not', 'browser', ['Firefox']],
    ],
    date_range: '30d',
    limit: 100,
  },
  timeseries_goal_90d: {
    metrics: ['visitors', 'conversion_rate'],
    dimensions: ['time:day'],
    filters: [['is', 'goal', ['Signup']]],
    date_range: '90d',
  },
  props_breakdown_30d: {
    metrics: ['visitors', 'events'],
    dimensions: ['event:props:plan'],
    filters: [['is', 'event', ['Signup']]],
    date_range: '30d',
  },
  comparison_30d: {
    metrics: ['visitors', 'pageviews'],
    dimensions: ['source'],
    date_range: '30d',
    include: { comparisons: { mode: 'previous_period' } },
  },
};

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

type Figures = Record<string, number | string | boolean>;
type Answer = {
  results: Array<{ dimensions: string[]; metrics: number[] }>;
  meta?: { total_rows?: number };
};

/** What every section of the run shares: the stack, its stores, the engine, and the figures. */
interface Bench {
  stack: Awaited<ReturnType<typeof startStack>>;
  redis: ReturnType<typeof createRedis>;
  prefix: string;
  ingest: IngestService;
  connection: mongoose.Connection;
  duck: Duck;
  codec: BlockCodec;
  sealed: SealedBlocks;
  figures: Figures;
  /** The API key every question is asked with. */
  key: string;
  /** POST /query through the External API: its answer and how long it took. */
  ask(websiteId: string, body: unknown): Promise<{ ms: number; data: Answer }>;
}

const say = (line: string) => console.log(line);

async function main(): Promise<void> {
  const started = Date.now();
  const database = await startBenchDatabase('wa-bench-query-');
  process.env.TEST_MONGODB_URI = database.uri;
  process.env.TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const stack = await startStack('benchq', {
    TRUSTED_PROXIES: 'loopback',
    LOG_LEVEL: 'silent',
    READ_CACHE: 'off',
    // The hourly look at every website for webhooks' alerts is background work of its own: it
    // would land inside a measurement (docs/benchmarks.md).
    ANALYTICS_ALERTS_ENABLED: 'false',
  });
  const redis = createRedis(stack.env.REDIS_URL!);
  const connection = await mongoose
    .createConnection(testMongoUri(`${stack.id}_analytics`))
    .asPromise();
  const duck = await Duck.open({ threads: 2 });
  const codec = new BlockCodec(duck);
  const figures: Figures = {};
  try {
    const { sites, key } = await createSites(stack);
    const bench: Bench = {
      stack,
      redis,
      prefix: stack.env.REDIS_KEY_PREFIX!,
      ingest: stack.analytics.services.ingest,
      connection,
      duck,
      codec,
      sealed: new SealedBlocks(connection),
      figures,
      key,
      ask: asker(stack, key),
    };
    figures.ingest_events_per_s_empty = await measureIngest(
      bench,
      sites.empty,
      'into an empty database',
    );
    const written = await writeHistories(bench, sites.large, sites.small);
    figures.ingest_events_per_s_10m = await measureIngest(
      bench,
      [sites.large, ...sites.beside],
      'beside the history',
    );
    say(
      `ingestion beside the history: ${ratio(Number(figures.ingest_events_per_s_10m), Number(figures.ingest_events_per_s_empty))} of the rate into an empty database`,
    );
    await askQuestions(bench, sites.large, '');
    await askQuestions(bench, sites.small, '_100k');
    await measureEngineFloor(bench, written.get(sites.large.id)!, sites.large.id);
    await rankWideDay(bench, sites.wide);
  } finally {
    redis.disconnect();
    codec.close();
    duck.close();
    await connection.close();
    await stack.stop();
    await database.stop();
  }

  // 7. The existing routes at 1M events, measured by their own benchmark.
  if (!options.skipRoutes) {
    const routes = await runBenchAnalytics();
    figures.routes_p50_1m_max_ms = routes.slowest_route_p50_1m as number;
    figures.routes_slowest = routes.slowest_route_name as string;
    say(
      `existing routes at 1M events: slowest p50 ${figures.routes_p50_1m_max_ms} ms (${figures.routes_slowest})`,
    );
  }
  figures.run_seconds = Math.round((Date.now() - started) / 1000);
  figures.engine = process.env.MONGODB_URI ? 'MONGODB_URI' : 'ferretdb-sqlite';
  console.log(JSON.stringify(figures));
}

/** The websites of the run, in the bench's account, with Signup goals; and its API key. */
async function createSites(stack: Bench['stack']) {
  const { key, site } = await benchAccount(stack);
  const sites = {
    empty: [await site('empty-0'), await site('empty-1')],
    beside: [await site('beside-0'), await site('beside-1')],
    large: await site('large'),
    small: await site('small'),
    wide: await site('wide'),
  };
  for (const target of [sites.large, sites.small])
    await stack.keys.services.goals.create(target.id, { kind: 'event', eventName: 'Signup' });
  return { sites, key };
}

function asker(stack: Bench['stack'], key: string): Bench['ask'] {
  return async (websiteId, body) => {
    const t = performance.now();
    const response = await fetch(`${stack.facade.url}/api/external/v1/query/${websiteId}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { data: Answer };
    if (response.status !== 200)
      throw new Error(`POST /query: ${response.status} ${JSON.stringify(json)}`);
    return { ms: performance.now() - t, data: json.data };
  };
}

/** 1. and 3. Ingestion, from the first append to the last applied: events per second. */
async function measureIngest(bench: Bench, sites: Site[], label: string): Promise<number> {
  const events = scatteredTraffic(sites, 6_000);
  const t = performance.now();
  await appendToStream(bench.redis, bench.prefix, events);
  await waitUntilIdle(bench.ingest, 600_000);
  const rate = Math.round(events.length / ((performance.now() - t) / 1000));
  say(`ingestion ${label}: ${events.length} events applied at ${rate} events/s`);
  return rate;
}

type WrittenDays = Map<string, Array<{ id: string; day: DayKey }>>;

/** 2. History in bulk, on the large website and the small one: the blocks written per website. */
async function writeHistories(bench: Bench, large: Site, small: Site): Promise<WrittenDays> {
  const written: WrittenDays = new Map();
  const pages = new Set<string>();
  const bar = new SingleBar(
    { format: 'history |{bar}| {value}/{total} events written' },
    Presets.shades_classic,
  );
  bar.start(options.events + 100_000, 0);
  const historyStarted = performance.now();
  const history = (target: Site, events: number, seed: number, pagesSeen?: Set<string>) =>
    writeHistory(bench, { target, events, seed, bar, pages: pagesSeen }).then((blocks) => {
      written.set(target.id, blocks.blocks);
      return blocks.count;
    });
  bench.figures.events_history = await history(large, options.events, 10_000, pages);
  bench.figures.events_history_small = await history(small, 100_000, 20_000);
  bar.stop();
  bench.figures.distinct_pages_history = pages.size;
  say(
    `history: ${bench.figures.events_history} events on one website, ${bench.figures.events_history_small} on another, ${pages.size} distinct pages, written in ${Math.round((performance.now() - historyStarted) / 1000)} s`,
  );
  return written;
}

/** One website's history: a sealed block per day over HISTORY_DAYS, named by its day index. */
async function writeHistory(
  bench: Bench,
  run: { target: Site; events: number; seed: number; bar: SingleBar; pages?: Set<string> },
): Promise<{ count: number; blocks: Array<{ id: string; day: DayKey }> }> {
  const { target, events, seed, bar } = run;
  const today = floorDay(Date.now());
  const index = new DayIndexStore(bench.connection, bench.redis, new HotKeys(bench.prefix));
  const websiteIndex = await index.load(target.id);
  const blocks: Array<{ id: string; day: DayKey }> = [];
  let count = 0;
  let visitors = 0;
  for (let d = HISTORY_DAYS; d >= 1; d -= 1) {
    const end = today - (d - 1) * DAY_MS;
    // Each day aims at what is left over the days left, at the events per visitor seen so
    // far, with some to spare (a tenth on the last day): the history is at least `events`.
    const perVisitor = visitors > 0 ? count / visitors : EVENTS_PER_VISITOR;
    const visitorsPerDay = Math.max(
      1,
      Math.ceil(((events - count) / d / perVisitor) * (d === 1 ? 1.1 : 1.005)),
    );
    visitors += visitorsPerDay;
    const rows = generateEventRows({ seed: seed + d, days: 1, visitorsPerDay, end, pages: 45_000 });
    if (run.pages) for (const row of rows) run.pages.add(row.page);
    const day = new Date(end - DAY_MS).toISOString().slice(0, 10) as DayKey;
    const id = new Types.ObjectId().toHexString();
    await bench.sealed.write(id, target.id, day, await bench.codec.encode(rows));
    websiteIndex.days.set(day, { ...emptyDay(), snapshot: id });
    blocks.push({ id, day });
    count += rows.length;
    bar.increment(rows.length);
  }
  await index.save(websiteIndex);
  return { count, blocks };
}

/** 4. The questions through the API. The first call loads the website's table. */
async function askQuestions(bench: Bench, target: Site, suffix: '' | '_100k'): Promise<void> {
  const size = suffix ? '100k' : '10M';
  const t = performance.now();
  await bench.ask(target.id, QUESTIONS.timeseries_goal_90d);
  say(`first query on ${size}: ${Math.round(performance.now() - t)} ms (the table loaded)`);
  for (const [name, body] of Object.entries(QUESTIONS)) {
    for (let i = 0; i < 3; i += 1) await bench.ask(target.id, body);
    const samples: number[] = [];
    for (let i = 0; i < options.samples; i += 1)
      samples.push((await bench.ask(target.id, body)).ms);
    bench.figures[`q_${name}${suffix}_p50_ms`] = p50(samples);
    say(`${name} at ${size} events: p50 ${p50(samples)} ms`);
  }
}

/** 5. The engine's floor: the same statement on DuckDB directly, over the same blocks. */
async function measureEngineFloor(
  bench: Bench,
  written: Array<{ id: string; day: DayKey }>,
  websiteId: string,
): Promise<void> {
  const { duck, figures } = bench;
  const floorTable = 'floor_large';
  await createEventTable(duck, floorTable, { replace: true });
  const blocks = await bench.sealed.read(websiteId, written);
  await bench.codec.load(floorTable, [...blocks.values()]);
  const now = Date.now();
  const query = readQueryBody(QUESTIONS.breakdown2_filter3_30d, now);
  const span = spanOf(query.dateRange, now);
  // As the service asks it: the filter's keys from the dictionary, then the statement.
  const ask = async () =>
    queryWithKeys(duck, await resolveKeys(duck, floorTable, query.filter), (keys) =>
      compileStatsQuery(query, floorTable, span.from, span.to, GOALS, { keys }),
    );
  for (let i = 0; i < 3; i += 1) await ask();
  const floor: number[] = [];
  for (let i = 0; i < options.samples; i += 1) {
    const t = performance.now();
    await ask();
    floor.push(performance.now() - t);
  }
  figures.engine_floor_breakdown2_filter3_30d_p50_ms = p50(floor);
  figures.overhead_vs_engine_x =
    Math.round((Number(figures.q_breakdown2_filter3_30d_p50_ms) / p50(floor)) * 100) / 100;
  say(
    `engine floor (DuckDB directly, same statement): p50 ${p50(floor)} ms; the service ${figures.overhead_vs_engine_x}× that`,
  );
}

/**
 * 6. A day of 20,000 distinct pages, through the stream; some viewed more often, each view by a
 * visitor of its own: ranked exactly by POST /query and by GET /analytics/:id/pages, or not.
 */
async function rankWideDay(bench: Bench, wide: Site): Promise<void> {
  const distinct = 20_000;
  const base = todaysPageviews(wide, distinct * 2, 31);
  const views: CollectedEvent[] = [];
  const expected = new Map<string, number>();
  for (let i = 0; i < distinct; i += 1) {
    const path = `/p/${i}`;
    const times = i % 97 === 0 ? 3 : i % 13 === 0 ? 2 : 1;
    expected.set(path, times);
    for (let t = 0; t < times; t += 1)
      views.push({
        ...base[views.length % base.length]!,
        path,
        visitorId: `wide-${views.length}`,
        // Each view an event of its own: early in a UTC day, today's traffic has fewer page
        // views than this loop takes, and a repeated event id is applied once.
        eventId: randomUUID(),
      } as CollectedEvent);
  }
  await appendToStream(bench.redis, bench.prefix, views);
  await waitUntilIdle(bench.ingest, 600_000);
  const { ranked, totalRows } = await rankedByQuery(bench, wide, distinct);
  const want = [...expected]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, n]) => `${path}=${n}`);
  const routeRanked = await rankedByRoute(bench, wide, distinct);
  // The route ranks by visitors first: each view here is its own visitor's, so the same order.
  bench.figures.pages_exact_at_20k_distinct =
    totalRows === distinct &&
    JSON.stringify(ranked) === JSON.stringify(want) &&
    JSON.stringify(routeRanked) === JSON.stringify(want);
  say(
    `a day of ${distinct} distinct pages: POST /query ${totalRows} rows, GET /analytics/:id/pages ${routeRanked.length} rows, ranked ${bench.figures.pages_exact_at_20k_distinct ? 'exactly by both' : 'NOT exactly'}`,
  );
}

/** The day's pages by page views through POST /query, 10,000 rows a page, as `path=views`. */
async function rankedByQuery(bench: Bench, wide: Site, distinct: number) {
  const ranked: string[] = [];
  let totalRows = 0;
  for (let offset = 0; offset < distinct; offset += 10_000) {
    const { data } = await bench.ask(wide.id, {
      metrics: ['pageviews'],
      dimensions: ['page'],
      date_range: '24h',
      include: { total_rows: true },
      limit: 10_000,
      offset,
    });
    ranked.push(...data.results.map((r) => `${r.dimensions[0]}=${r.metrics[0]}`));
    totalRows = data.meta?.total_rows ?? 0;
  }
  return { ranked, totalRows };
}

/** The same day through the existing route, a page of 1,000 rows at a time (its maximum). */
async function rankedByRoute(bench: Bench, wide: Site, distinct: number): Promise<string[]> {
  const routeRanked: string[] = [];
  for (let offset = 0; offset < distinct + 1_000; offset += 1_000) {
    const response = await fetch(
      `${bench.stack.facade.url}/api/external/v1/analytics/${wide.id}/pages?range=24h&limit=1000&offset=${offset}`,
      { headers: { 'x-api-key': bench.key } },
    );
    const json = (await response.json()) as {
      data: { pages: Array<{ path: string; pageviews: number }> };
    };
    if (response.status !== 200)
      throw new Error(`GET /pages: ${response.status} ${JSON.stringify(json)}`);
    if (json.data.pages.length === 0) break;
    routeRanked.push(...json.data.pages.map((p) => `${p.path}=${p.pageviews}`));
  }
  return routeRanked;
}

/** Runs bench:analytics, its output shown indented; resolves with its figures (its last line). */
function runBenchAnalytics(): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [require.resolve('tsx/cli'), 'scripts/bench-analytics.ts'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let last = '';
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line.trim()) last = line;
        console.log(`  [bench:analytics] ${line}`);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (buffered.trim()) last = buffered;
      if (code !== 0) return reject(new Error(`bench:analytics exited with ${code}`));
      try {
        resolve(JSON.parse(last) as Record<string, unknown>);
      } catch {
        reject(new Error(`bench:analytics ended without its figures: ${last}`));
      }
    });
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
