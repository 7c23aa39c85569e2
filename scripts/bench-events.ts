/**
 * `npm run bench:events`: what the two ways in take, beside what the hardware gives, in one run on
 * the embedded default (FerretDB on SQLite from .tools/bin, or MONGODB_URI), every client on
 * loopback:
 *
 *  1. baseline: a bare Node HTTP server answering every POST 202, requests/s;
 *  2. `POST /api/collect`, one event a request (the tracking script's way), requests/s;
 *  3. `POST /api/events`, batches of 100 keyed events with the end users' IPs and user agents
 *     (the server-side Events API's way), events/s; target ≥ 0.5× the bare server's requests/s;
 *  4. the check that every event accepted in 3 was applied and counts once: the website's page
 *     views over the API once the analytics consumer caught up.
 *
 * The same number of clients (connections) in each; all five services run in this process, as
 * the integration tests start them. The last line is one JSON object of the figures.
 *
 *   npm run bench:events -- [--connections 50] [--seconds 5]
 */
import autocannon from 'autocannon';
import { Command } from 'commander';
import { startStack } from '../test/support/stack';
import { waitUntilIdle } from '../test/support/ingest-idle';
import { benchAccount } from './lib/bench-account';
import type { Site } from './lib/bench-traffic';
import { bareNodeServer } from './lib/bare-node';
import { startBenchDatabase } from './lib/bench-database';

process.env.NODE_ENV ??= 'production';
const options = new Command()
  .option('--connections <n>', 'clients sending at once', Number, 50)
  .option('--seconds <n>', 'seconds each measurement lasts', Number, 5)
  .parse()
  .opts<{ connections: number; seconds: number }>();

const BATCH = 100;
const TARGET_VS_BARE = 0.5;
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];

const say = (text: string) => process.stderr.write(`[bench:events] ${text}\n`);
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

/** Requests answered per second and how many were not 2xx. */
async function load(opts: autocannon.Options): Promise<{ rps: number; answered: number }> {
  const result = await autocannon({
    connections: options.connections,
    duration: options.seconds,
    ...opts,
  });
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`${opts.url}: ${result.errors} errors, ${result.non2xx} answers not 2xx`);
  return { rps: Math.round(result.requests.average), answered: result['2xx'] };
}

/**
 * A batch of BATCH page views of `domain`, each from another end user, as JSON with `@@` where
 * each request puts its own number: every event's idempotency key is new.
 */
function batchTemplate(websiteId: string, domain: string): string {
  const events = Array.from({ length: BATCH }, (_, i) => ({
    type: 'pageview',
    url: `https://${domain}/page-${i % 20}?utm_source=newsletter`,
    referrer: 'https://news.example/',
    ip: `11.${i}.${i % 7}.1`,
    user_agent: AGENTS[i % AGENTS.length],
    idempotency_key: `bench-@@-${i}`,
  }));
  return JSON.stringify({ website_id: websiteId, events });
}

async function main(): Promise<void> {
  const started = Date.now();
  const database = await startBenchDatabase('wa-bench-events-');
  process.env.TEST_MONGODB_URI = database.uri;
  process.env.TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const stack = await startStack('bench-events', {
    TRUSTED_PROXIES: 'loopback',
    LOG_LEVEL: 'silent',
    READ_CACHE: 'off',
    // The hourly look at every website for webhooks' alerts is background work of its own: it
    // would land inside a measurement (docs/benchmarks.md).
    ANALYTICS_ALERTS_ENABLED: 'false',
  });
  const figures: Record<string, number | string | boolean> = {};
  try {
    const { key, site } = await benchAccount(stack);
    const [browserSite, serverSite] = [await site('browser'), await site('server')];
    say(`${options.connections} clients, ${options.seconds} s each`);

    const bare = await bareNodeServer();
    figures.bare_node_rps = (
      await load({ url: bare.url, method: 'POST', body: '{"type":"pageview"}' })
    ).rps;
    await bare.close();
    say(`bare Node server: ${figures.bare_node_rps} requests/s`);

    figures.collect_rps = await measureCollect(stack.facade.url, browserSite);
    figures.collect_vs_bare_x = ratio(Number(figures.collect_rps), Number(figures.bare_node_rps));
    say(
      `POST /api/collect: ${figures.collect_rps} requests/s (${figures.collect_vs_bare_x}× bare)`,
    );
    await waitUntilIdle(stack.analytics.services.ingest, 300_000);

    const template = batchTemplate(serverSite.id, serverSite.domain);
    let batch = 0;
    const server = await load({
      url: `${stack.facade.url}/api/events`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            body: template.replaceAll('@@', String((batch += 1))),
          }),
        },
      ],
    });
    figures.server_batches_per_s = server.rps;
    figures.server_events_per_s = server.rps * BATCH;
    figures.server_events_vs_bare_x = ratio(server.rps * BATCH, Number(figures.bare_node_rps));
    const met = Number(figures.server_events_vs_bare_x) >= TARGET_VS_BARE;
    say(
      `POST /api/events: ${server.rps} batches/s = ${figures.server_events_per_s} events/s (${figures.server_events_vs_bare_x}× the bare server's requests/s; target ≥ ${TARGET_VS_BARE}×: ${met ? 'met' : 'MISSED'})`,
    );

    const applyStarted = Date.now();
    await waitUntilIdle(stack.analytics.services.ingest, 600_000);
    figures.applied_seconds = Math.round((Date.now() - applyStarted) / 100) / 10;
    // Requests still under way when the load stopped were taken too, unanswered: every batch sent
    // counts, each event once.
    const counted = await pageviews(stack.facade.url, key, serverSite.id);
    figures.server_events_counted_once = counted === batch * BATCH;
    say(
      `applied ${figures.applied_seconds} s after the load: ${counted} page views counted for ${batch} batches sent (${server.answered} answered before the load stopped): ${figures.server_events_counted_once ? 'each event once' : 'MISMATCH'}`,
    );
    figures.run_seconds = Math.round((Date.now() - started) / 1000);
    figures.engine = process.env.MONGODB_URI ? 'MONGODB_URI' : 'ferretdb-sqlite';
    console.log(JSON.stringify(figures));
  } finally {
    await stack.stop();
    await database.stop();
  }
}

/** 2. POST /api/collect: requests/s, each from another client IP. */
async function measureCollect(base: string, site: Site): Promise<number> {
  let n = 0;
  const { rps } = await load({
    url: `${base}/api/collect`,
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'user-agent': AGENTS[0]! },
    body: JSON.stringify({
      trackingCode: site.trackingCode,
      type: 'pageview',
      url: `https://${site.domain}/`,
    }),
    // Each request from another client IP (the stack trusts loopback): the per-IP limit of
    // collection would answer instead of the route.
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: {
            ...req.headers,
            'x-forwarded-for': `12.${(n >> 8) & 255}.${(n += 1) & 255}.1`,
          },
        }),
      },
    ],
  });
  return rps;
}

/** The website's page views of the last 24 hours, over the External API. */
async function pageviews(base: string, key: string, websiteId: string): Promise<number> {
  const response = await fetch(`${base}/api/external/v1/query/${websiteId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ metrics: ['pageviews'], date_range: '24h' }),
  });
  const body = (await response.json()) as { data: { results: Array<{ metrics: number[] }> } };
  if (response.status !== 200) throw new Error(`query: ${response.status}`);
  return body.data.results[0]?.metrics[0] ?? 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
