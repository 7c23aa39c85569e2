/**
 * Analytics benchmarks on the real stack (in this process, like the integration tests):
 *  1. ingestion: POST /api/collect requests/s next to a bare Node HTTP server, and how fast the
 *     analytics consumer applies what was accepted;
 *  2. GET /analytics/:id?range=1y p50/p99 with 10k and 1M events over a year (enriched and
 *     aggregated by the real code, then inserted in bulk: applying 1M events one batch at a time
 *     through FerretDB's upserts would take hours);
 *  3. GET /analytics/:id/visitors at offset 0 and 100,000;
 *  4. GET /live/{trackingCode} requests/s and p99.
 *
 *   npx tsx scripts/bench-analytics.ts [--duration 10] [--connections 20]
 *
 * Uses MONGODB_URI (a base URI; databases are created under it) or starts FerretDB from
 * .tools/bin in a temporary directory; REDIS_URL or redis://127.0.0.1:6379.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { collectPayloadSchema } from '../rest-facade/src/collect/collect.schema';
import { demoTraffic } from '../rest-facade/src/collect/demo-traffic';
import { enrich } from '../rest-facade/src/collect/enrich';
import { createAnalyticsModels } from '../subgraphs/analytics/src/models';
import { aggregateBatch, type VisitorState } from '../subgraphs/analytics/src/ingest/aggregate';
import type { CollectedEvent } from '../subgraphs/analytics/src/ingest/collected-event';
import { HOUR_BUCKET_RETENTION_MS } from '../subgraphs/analytics/src/services/retention.service';
import { floorDay } from '../subgraphs/analytics/src/ingest/time-buckets';
import { connectMongo } from '../common/mongo';
import { startStack, testMongoUri } from '../test/support/stack';
import { findMongoEngine, startEngine, type StartedEngine } from './lib/engines';

const options = new Command()
  .option('--duration <s>', 'seconds per HTTP measurement', (v) => Number.parseInt(v, 10), 10)
  .option('--connections <n>', 'concurrent connections', (v) => Number.parseInt(v, 10), 20)
  .parse()
  .opts<{ duration: number; connections: number }>();

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/**
 * Autocannon requests that each come from another client IP (X-Forwarded-For; the stack trusts
 * loopback), so the per-IP limits of the public routes do not answer instead of the route.
 */
function fromManyIps(firstOctet: number): autocannon.Request[] {
  let n = 0;
  return [
    {
      setupRequest: (req) => ({
        ...req,
        headers: {
          ...req.headers,
          'x-forwarded-for': `${firstOctet}.${(n >> 16) & 255}.${(n >> 8) & 255}.${(n += 1) & 255}`,
        },
      }),
    },
  ];
}

async function load(opts: autocannon.Options): Promise<Figures> {
  const result = await autocannon({
    connections: options.connections,
    duration: options.duration,
    ...opts,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

/** Sequential requests for slow endpoints: requests/s, median and worst latency of `count` calls. */
async function timed(url: string, headers: Record<string, string>, count = 5): Promise<Figures> {
  const times: number[] = [];
  let non2xx = 0;
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status >= 300) non2xx += 1;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const total = times.reduce((n, t) => n + t, 0);
  return {
    rps: Math.round((count / total) * 1000 * 10) / 10,
    p50: Math.round(times[Math.floor(count / 2)]!),
    p99: Math.round(times[count - 1]!),
    non2xx,
  };
}

async function bareServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end('{"accepted":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  let engine: StartedEngine | null = null;
  let dataDir: string | null = null;
  if (!process.env.MONGODB_URI) {
    const found = findMongoEngine();
    if (!found) throw new Error('set MONGODB_URI or run `npm run ferretdb:install`');
    dataDir = mkdtempSync(join(tmpdir(), 'wa-bench-'));
    engine = await startEngine(found, dataDir);
  }
  process.env.TEST_MONGODB_URI = process.env.MONGODB_URI ?? `mongodb://127.0.0.1:${engine!.port}/`;
  process.env.TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const stack = await startStack('bench', { TRUSTED_PROXIES: 'loopback', LOG_LEVEL: 'silent' });
  const rows: string[] = [];
  const row = (what: string, f: Figures) => {
    const line = `| ${what} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.non2xx} |`;
    rows.push(line);
    console.log(line);
  };
  try {
    const { accounts, credentials } = stack.keys.services;
    const organization = await accounts.createOrganization({
      name: 'Bench',
      plan: 'enterprise',
      customLimits: { requestsPerMinute: 100_000_000, requestsPerMonth: 1_000_000_000 },
    });
    const user = await accounts.createUser(`bench-${Date.now()}@example.com`);
    await accounts.addMember(organization.id, user.id, 'owner');
    const site = async (name: string) =>
      accounts.createWebsite({
        organizationId: organization.id,
        name,
        domain: `${name}.example.com`,
      });
    const [ingestSite, smallSite, largeSite] = [
      await site('ingest'),
      await site('small'),
      await site('large'),
    ];
    const { key } = await credentials.createApiKey({
      organizationId: organization.id,
      userId: user.id,
      name: 'bench',
    });
    const headers = { 'x-api-key': key };
    const facade = stack.facade.url;
    console.log('| measurement | requests/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|');

    // 1. Ingestion.
    const bare = await bareServer();
    const body = JSON.stringify({
      trackingCode: ingestSite.trackingCode,
      type: 'pageview',
      url: 'https://ingest.example.com/',
      screen: { width: 1920, height: 1080 },
    });
    const ua =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    row(
      'bare Node HTTP server (same body)',
      await load({
        url: bare.url,
        method: 'POST',
        body,
        headers: { 'content-type': 'text/plain', 'user-agent': ua },
      }),
    );
    await bare.close();
    const collected = await load({
      url: `${facade}/api/collect`,
      method: 'POST',
      body,
      headers: { 'content-type': 'text/plain', 'user-agent': ua },
      requests: fromManyIps(11),
    });
    row('POST /api/collect (accept + append to stream)', collected);
    const drainStart = Date.now();
    await stack.analytics.services.ingest.waitUntilIdle(600_000);
    const accepted = collected.rps * options.duration;
    console.log(
      `consumer caught up ${Date.now() - drainStart} ms after the load ended (~${accepted} events accepted)`,
    );

    // 2. and 3. A year of traffic for two websites, 10k and 1M events, run through the real
    // enrichment and aggregation (ingest/aggregate.ts) and inserted in bulk — what the consumer
    // would have left behind, minus the hour buckets the retention job drops after two days.
    const connection = await connectMongo(testMongoUri(`${stack.id}_analytics`));
    const models = createAnalyticsModels(connection);
    const now = Date.now();
    const seedYear = async (
      website: { id: string; trackingCode: string; domain: string },
      target: number,
    ) => {
      const bar = new SingleBar(
        { format: `seeding ${target} events |{bar}| {value}/{total}` },
        Presets.shades_classic,
      );
      bar.start(target, 0);
      let count = 0;
      let day: number | null = null;
      let pending: CollectedEvent[] = [];
      const flush = async () => {
        if (pending.length === 0) return;
        const writes = aggregateBatch(pending, new Map<string, VisitorState>());
        const stats = writes.stats
          .filter((s) => s.granularity === 'day' || s.bucket >= now - HOUR_BUCKET_RETENTION_MS)
          .map((s) => ({
            websiteId: s.websiteId,
            granularity: s.granularity,
            bucket: new Date(s.bucket),
            dim: s.dim,
            value: s.value,
            pageviews: 0,
            visitors: 0,
            sessions: 0,
            bounces: 0,
            duration: 0,
            events: 0,
            ...s.inc,
          }));
        const totals = stats.filter((s) => s.dim === '');
        const dims = stats.filter((s) => s.dim !== '');
        for (let i = 0; i < dims.length; i += 5_000)
          await models.Stat.collection.insertMany(dims.slice(i, i + 5_000));
        if (totals.length) await models.StatTotal.collection.insertMany(totals);
        for (let i = 0; i < writes.visitors.length; i += 5_000)
          await models.Visitor.collection.insertMany(
            writes.visitors.slice(i, i + 5_000).map((v) => ({ ...v })),
          );
        bar.update(count);
        pending = [];
      };
      const visitorsPerDay = Math.max(1, Math.ceil(target / 365 / 2.0));
      for (const e of demoTraffic({
        trackingCode: website.trackingCode,
        host: website.domain,
        days: 365,
        visitorsPerDay,
        now,
      })) {
        if (count >= target) break;
        const eventDay = floorDay(e.ts);
        if (day !== null && eventDay !== day) await flush();
        day = eventDay;
        pending.push(
          enrich(collectPayloadSchema.parse(e.payload), {
            websiteId: website.id,
            ip: e.ip,
            userAgent: e.userAgent,
            countryHeader: undefined,
            salt: String(eventDay),
            now: e.ts,
          }),
        );
        count += 1;
      }
      await flush();
      bar.stop();
      return count;
    };
    const small = await seedYear(smallSite, 10_000);
    const large = await seedYear(largeSite, 1_000_000);
    const visitorTotal = await models.Visitor.countDocuments({ websiteId: largeSite.id });
    await connection.close();
    row(
      `GET /analytics/:id?range=1y, ${small} events`,
      await load({ url: `${facade}/api/external/v1/analytics/${smallSite.id}?range=1y`, headers }),
    );
    row(
      `GET /analytics/:id?range=1y, ${large} events`,
      await load({ url: `${facade}/api/external/v1/analytics/${largeSite.id}?range=1y`, headers }),
    );
    // A visitors page can take seconds on FerretDB/SQLite (it scans): timed one at a time.
    row(
      `GET /analytics/:id/visitors offset 0 (${visitorTotal} visitors)`,
      await timed(
        `${facade}/api/external/v1/analytics/${largeSite.id}/visitors?range=1y&limit=100&offset=0`,
        headers,
      ),
    );
    row(
      'GET /analytics/:id/visitors offset 100,000',
      await timed(
        `${facade}/api/external/v1/analytics/${largeSite.id}/visitors?range=1y&limit=100&offset=100000`,
        headers,
      ),
    );

    // 4. Live visitors.
    row(
      'GET /live/{trackingCode}',
      await load({ url: `${facade}/live/${ingestSite.trackingCode}`, requests: fromManyIps(10) }),
    );
    console.log(`\n${rows.join('\n')}`);
  } finally {
    await stack.stop();
    await engine?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
