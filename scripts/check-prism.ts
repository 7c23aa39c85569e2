/**
 * `npm run check:prism`: the OpenAPI document against the running code, through Stoplight
 * Prism's validating proxy. Starts its own stack (scripts/prism/stack.ts), makes its credentials
 * with the admin CLI, and puts two proxies in front of the facade, both on the document the
 * facade serves (scripts/prism/checker.ts):
 *
 * - strict (`prism proxy --errors`): requests the document allows — every operation with typical
 *   and edge values, and the error answers such requests get (401 for an unknown key, 403, 404,
 *   409, 429, and 400 for rules the document cannot state). Any violation fails the check.
 * - lenient (`prism proxy`): requests the document refuses (bad parameters, no credentials,
 *   unknown paths and methods), to check the documented error answers. Prism's complaint about
 *   the request is expected; one about the response fails the check.
 *
 * Every exchange must also get the status it names, and every operation of the document must be
 * sent at least once. Prints each failure with Prism's violations and exits 1 on any; the
 * services' and Prism's logs and the document checked are left in test-results/prism/.
 *
 *   npm run check:prism                              # the document the facade serves
 *   npm run check:prism -- --document fixed.json     # another one, e.g. a fix to try first
 */
import { once } from 'node:events';
import { copyFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Command } from 'commander';
import { analyticsEventStream } from '../common/contracts/collected-event';
import { fromRoot } from '../common/platform/paths';
import { createRedis, waitForRedis } from '../common/platform/redis';
import { createCredentials, type Credentials } from './prism/account';
import { Checker, operationsNotSent, report } from './prism/checker';
import { startPrismProxy, type PrismProxy } from './prism/proxy';
import { startPrismStack, type PrismStack } from './prism/stack';

const LOG_DIR = fromRoot('test-results', 'prism');
const API = '/api/external/v1';
const WEBHOOKS = '/v1/cli/mutate/webhooks';
const RANGES = ['24h', '7d', '30d', '90d', '1y'] as const;
/** A well-formed id that names nothing. */
const UNKNOWN_ID = '6543210fedcba98765432100';

const say = (text: string) => process.stderr.write(`[prism] ${text}\n`);

const apiKey = (key: string) => ({ 'x-api-key': key });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** A visitor's browser: events from bots and bare HTTP clients are answered but not counted. */
const BROWSER = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
};

interface Envelope {
  data?: Record<string, unknown>;
}

/** An event of each kind the tracker sends. */
function trackerEvents(trackingCode: string, host: string) {
  const url = `https://${host}/pricing`;
  return [
    {
      type: 'pageview',
      trackingCode,
      url,
      referrer: 'https://www.google.com/',
      screen: { width: 1440, height: 900 },
    },
    { type: 'pageview', trackingCode, url: `https://${host}/`, referrer: null },
    {
      type: 'event',
      trackingCode,
      url,
      name: 'signup',
      props: { plan: 'pro', seats: 3, trial: true },
    },
    {
      type: 'click',
      trackingCode,
      url,
      x: 120,
      y: 640.5,
      viewport: { width: 1280, height: 800 },
      selector: 'button.buy',
    },
    {
      type: 'error',
      trackingCode,
      url,
      message: 'TypeError: x is undefined',
      stack: 'at f (app.js:1:2)',
    },
    {
      type: 'replay',
      trackingCode,
      url,
      sessionId: 'prism-session-0001',
      sequence: 0,
      events: [{ type: 4, timestamp: Date.now(), data: { href: url, width: 1280, height: 800 } }],
    },
  ];
}

/** The breakdowns that take range, limit and offset. */
const PAGED = [
  (id: string) => `${API}/analytics/${id}/visitors`,
  (id: string) => `${API}/analytics/${id}/countries`,
  (id: string) => `${API}/analytics/${id}/pages`,
  (id: string) => `${API}/analytics/${id}/sources`,
  (id: string) => `${API}/heatmaps/${id}/pages`,
  (id: string) => `${API}/replays/${id}/sessions`,
  (id: string) => `${API}/errors/${id}/groups`,
];

/**
 * POST /api/collect through Prism as the tracker sends it (sendBeacon: text/plain) and as fetch
 * does (JSON); each event is also posted straight to the facade, so that the reads have rows
 * to validate whatever Prism lets through.
 */
async function collect(check: Checker, stack: PrismStack, c: Credentials): Promise<void> {
  for (const [i, website] of c.websites.entries()) {
    const host = `site${i}.prism.test`;
    for (const [j, event] of trackerEvents(website.trackingCode, host).entries()) {
      const direct = await fetch(`${stack.facadeUrl}/api/collect`, {
        method: 'POST',
        headers: { ...BROWSER, 'content-type': 'application/json' },
        body: JSON.stringify(event),
      });
      const answer = (await direct.json()) as { accepted?: boolean };
      if (answer.accepted !== true)
        throw new Error(`POST /api/collect did not count the event: ${JSON.stringify(answer)}`);
      await check.send({
        kind: 'allowed',
        method: 'POST',
        path: '/api/collect',
        headers: {
          ...BROWSER,
          origin: `https://${host}`,
          'content-type': j % 2 === 0 ? 'text/plain;charset=UTF-8' : 'application/json',
        },
        body: JSON.stringify(event),
        status: 202,
      });
    }
  }
}

/**
 * Resolves once the analytics subgraph has applied every collected event (it deletes them), and
 * checks, straight from the facade, that every breakdown has rows for the check to validate.
 */
async function eventsApplied(stack: PrismStack, c: Credentials): Promise<void> {
  const redis = createRedis(stack.adminEnv.REDIS_URL!);
  redis.on('error', () => undefined);
  const stream = analyticsEventStream(stack.adminEnv.REDIS_KEY_PREFIX!);
  const deadline = Date.now() + 30_000;
  try {
    await waitForRedis(redis);
    while ((await redis.xlen(stream)) > 0) {
      if (Date.now() > deadline) throw new Error('the collected events were not applied in 30 s');
      await sleep(100);
    }
  } finally {
    redis.disconnect();
  }
  for (const page of PAGED) {
    const url = `${stack.facadeUrl}${page(c.websites[0].id)}`;
    const list = (await (await fetch(url, { headers: apiKey(c.key) })).json()) as Envelope;
    if (!Object.values(list.data ?? {}).find(Array.isArray)?.length)
      throw new Error(`${url} has no rows: the check would validate empty lists only`);
  }
}

async function accountAndAnalytics(check: Checker, c: Credentials): Promise<void> {
  const [first, second] = c.websites;
  const get = (path: string, headers: Record<string, string> = apiKey(c.key)) =>
    check.send<Envelope>({ kind: 'allowed', method: 'GET', path, headers, status: 200 });
  await get(`${API}/websites`);
  await get(`${API}/websites`, bearer(c.key));
  await get(`${API}/websites`, apiKey(c.firstWebsiteKey));
  await get(`${API}/websites/${first.id}`);
  await get(`${API}/usage`);
  await get(`${API}/openapi.json`, {});

  for (const range of RANGES) await get(`${API}/analytics/${first.id}?range=${range}`);
  await get(`${API}/analytics/${first.id}`);
  await get(`${API}/analytics/${second.id}?timeRange=30d`);
  await get(`${API}/analytics/${first.id}?range=7d&timeRange=7d`);
  for (const page of PAGED) {
    await get(page(first.id));
    await get(`${page(first.id)}?range=24h&limit=1&offset=0`);
    await get(`${page(first.id)}?timeRange=1y&limit=1000&offset=1`);
    // Above 1000 is clamped, not refused; the largest offset reads past the end.
    await get(`${page(first.id)}?range=90d&limit=5000&offset=2000000000`);
  }
  await get(`${API}/analytics/${first.id}/technology`);
  await get(`${API}/analytics/${first.id}/technology?range=24h&limit=1`);
  await get(`${API}/analytics/${first.id}/technology?timeRange=1y&limit=5000`);
  await analyticsQueries(check, c);
}

/** POST /query: the old vocabulary, then several dimensions, nested filters and comparisons. */
async function analyticsQueries(check: Checker, c: Credentials): Promise<void> {
  const [first] = c.websites;
  const query = (json: unknown) =>
    check.send({
      kind: 'allowed',
      method: 'POST',
      path: `${API}/query/${first.id}`,
      headers: apiKey(c.key),
      json,
      status: 200,
    });
  await query({ metrics: ['visitors'] });
  await query({
    metrics: ['visitors', 'pageviews', 'sessions', 'bounce_rate', 'visit_duration', 'events'],
    date_range: '30d',
  });
  for (const dimension of ['country', 'page', 'source', 'device', 'browser', 'os', 'event'])
    await query({ metrics: ['visitors', 'pageviews'], dimensions: [dimension] });
  await query({ metrics: ['visitors'], dimensions: ['time:day'], date_range: '7d' });
  await query({ metrics: ['pageviews'], dimensions: ['time:hour'], date_range: '24h' });
  const day = (daysAgo: number) =>
    new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  await query({
    metrics: ['visitors', 'pageviews'],
    dimensions: ['page'],
    filters: [
      ['contains', 'page', ['/pricing']],
      ['is_not', 'page', ['/admin', '/login']],
    ],
    date_range: [day(365), day(0)],
    order_by: [
      ['pageviews', 'asc'],
      ['page', 'desc'],
    ],
    limit: 1,
    offset: 0,
  });
  await query({
    metrics: ['events'],
    dimensions: ['event'],
    filters: [['is', 'event', ['signup']]],
    limit: 5000,
    offset: 2000000000,
  });
  await query({
    metrics: ['visitors'],
    filters: [['is', 'country', ['DE', 'AT', 'CH']]],
    date_range: '1y',
  });
  await query({
    metrics: ['visitors', 'pageviews', 'bounce_rate', 'percentage'],
    dimensions: ['page', 'country', 'event:props:plan'],
    filters: [
      [
        'or',
        [
          ['matches', 'page', ['^/blog/']],
          ['not', ['contains', 'source', ['google']]],
        ],
      ],
      ['is_not', 'device', ['tablet']],
    ],
    date_range: '30d',
    include: { total_rows: true, comparisons: { mode: 'previous_period' } },
  });
  await query({
    metrics: ['visitors', 'views_per_visit'],
    dimensions: ['time:week', 'utm_campaign'],
    date_range: '90d',
    include: { time_labels: true, comparisons: { mode: 'year_over_year' } },
  });
}

async function publicRoutes(check: Checker, c: Credentials): Promise<void> {
  const [first] = c.websites;
  const origin = { origin: 'https://site0.prism.test' };
  await check.send({ kind: 'allowed', method: 'GET', path: '/tracker.js', status: 200 });
  // Every GET also answers HEAD; only here can Prism carry it (see operationsNotSent).
  await check.send({ kind: 'allowed', method: 'HEAD', path: '/tracker.js', status: 200 });
  await check.send({
    kind: 'allowed',
    method: 'OPTIONS',
    path: '/api/collect',
    headers: {
      ...origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
    status: 204,
  });
  const live = `/live/${first.trackingCode}`;
  await check.send({ kind: 'allowed', method: 'GET', path: live, headers: origin, status: 200 });
  await check.send({
    kind: 'allowed',
    method: 'OPTIONS',
    path: live,
    headers: { ...origin, 'access-control-request-method': 'GET' },
    status: 204,
  });
  await check.send({ kind: 'allowed', method: 'GET', path: '/live/wa-unknown000', status: 404 });
  const pageview = (trackingCode: string) => ({
    type: 'pageview',
    trackingCode,
    url: 'https://site0.prism.test/',
  });
  await check.send({
    kind: 'allowed',
    method: 'POST',
    path: '/api/collect',
    headers: BROWSER,
    json: pageview('wa-unknown000'),
    status: 404,
  });
  // A bot is answered 202 and not counted.
  await check.send({
    kind: 'allowed',
    method: 'POST',
    path: '/api/collect',
    headers: { 'user-agent': 'curl/8.5.0' },
    json: pageview(first.trackingCode),
    status: 202,
  });
  await check.send({
    kind: 'allowed',
    method: 'POST',
    path: '/api/collect',
    headers: { ...BROWSER, 'content-type': 'application/json', 'content-encoding': 'x-unknown' },
    body: JSON.stringify(pageview(first.trackingCode)),
    status: 415,
  });
}

/**
 * The server-side Events API: a batch as a backend sends it (again: its keyed events are
 * duplicates), one holding an event the document refuses (answered per event), and its errors.
 */
async function serverEvents(check: Checker, c: Credentials): Promise<void> {
  const [first, second] = c.websites;
  const event = (fields: Record<string, unknown>) => ({
    url: 'https://first.prism.test/checkout',
    ip: '203.0.113.7',
    user_agent: BROWSER['user-agent'],
    ...fields,
  });
  const batch = (websiteId: string, events: unknown[]) => ({ website_id: websiteId, events });
  const sale = batch(first.id, [
    event({ type: 'pageview', referrer: 'https://www.google.com/', idempotency_key: 'pv-1' }),
    event({
      type: 'event',
      name: 'Purchase',
      props: { plan: 'pro', seats: 3 },
      revenue: { amount: 49.9, currency: 'EUR' },
      idempotency_key: 'order-1',
    }),
    event({ type: 'event', name: 'Signup', user_agent: 'curl/8.5.0' }),
  ]);
  const send = (kind: 'allowed' | 'refused', key: string | null, json: unknown, status: number) =>
    check.send({
      kind,
      method: 'POST',
      path: '/api/events',
      headers: key ? apiKey(key) : {},
      json,
      status,
    });
  await send('allowed', c.key, sale, 202);
  await send('allowed', c.key, sale, 202);
  await send('allowed', c.firstWebsiteKey, batch(second.id, sale.events), 403);
  await send('allowed', c.key, batch(UNKNOWN_ID, sale.events), 404);
  await send('refused', c.key, batch(first.id, [event({ type: 'click' })]), 202);
  await send('refused', c.key, { events: sale.events }, 400);
  await send('refused', null, sale, 401);
}

/**
 * List, create, the event types, test, deliveries, redeliver, recover, enable, rotate and delete
 * with an access token, and their error answers.
 */
async function webhooks(check: Checker, c: Credentials, receiverUrl: string): Promise<void> {
  const send = (method: string, path: string, status: number, json?: unknown) =>
    check.send<Envelope>({
      kind: 'allowed',
      method,
      path: `${WEBHOOKS}${path}`,
      headers: bearer(c.token),
      json,
      status,
    });
  await send('GET', '', 200);
  const full = await send('POST', '', 201, {
    url: receiverUrl,
    description: 'Quota and key alerts',
    event_types: ['api_key.expiring', 'usage.threshold_reached'],
  });
  const minimal = await send('POST', '', 201, { url: `${receiverUrl}/minimal` });
  await send('POST', '', 201, { url: `${receiverUrl}/all`, description: null, event_types: [] });
  await send('GET', '', 200);
  const id = String(full?.data?.id);
  await send('GET', '/event-types', 200);
  const tested = await send('POST', `/${id}/test`, 200);
  const deliveryId = String(tested?.data?.delivery_id);
  await send('GET', `/${id}/deliveries`, 200);
  await send('GET', `/${id}/deliveries?status=succeeded&limit=1`, 200);
  await send('GET', `/${UNKNOWN_ID}/deliveries`, 404);
  await send('POST', `/${id}/deliveries/${deliveryId}/redeliver`, 200);
  await send('POST', `/${id}/deliveries/dlv_unknown/redeliver`, 404);
  await send('POST', `/${id}/recover`, 202, { since: '2026-01-01T00:00:00Z' });
  await send('POST', `/${id}/enable`, 200);
  await send('POST', `/${UNKNOWN_ID}/enable`, 404);
  await send('POST', `/${id}/alerts`, 200, {
    website_ids: [c.websites[0].id],
    spike_ratio: 3,
    drop_ratio: 0.4,
    report_hour: 7,
  });
  await send('POST', `/${id}/alerts`, 200, { website_ids: null });
  await send('POST', `/${UNKNOWN_ID}/alerts`, 404, { report_hour: 6 });
  await send('POST', `/${id}/rotate`, 200);
  const minimalId = String(minimal?.data?.id);
  await send('DELETE', `/${minimalId}`, 204);
  await send('DELETE', `/${minimalId}`, 404);
  await send('POST', `/${UNKNOWN_ID}/test`, 404);
  await send('POST', `/${UNKNOWN_ID}/rotate`, 404);
  await send('POST', '', 400, { url: 'ftp://hooks.prism.test/' });
  await check.send({
    kind: 'allowed',
    method: 'GET',
    path: WEBHOOKS,
    headers: bearer('wat_not-a-token'),
    status: 401,
  });
}

/**
 * Error answers to requests the document allows: an unknown key (Prism checks only that one is
 * sent), 403, 404, 400 for rules the document cannot state, and the limits (409, 429).
 */
async function allowedErrors(
  check: Checker,
  c: Credentials,
  stack: PrismStack,
  receiverUrl: string,
): Promise<void> {
  const [first, second] = c.websites;
  const get = (path: string, headers: Record<string, string>, status: number) =>
    check.send({ kind: 'allowed', method: 'GET', path, headers, status });
  await get(`${API}/websites`, apiKey('svc_not-a-key'), 401);
  await get(`${API}/websites`, bearer('svc_not-a-key'), 401);
  await get(`${API}/analytics/${first.id}`, apiKey(c.noReadKey), 403);
  await get(`${API}/analytics/${second.id}`, apiKey(c.firstWebsiteKey), 403);
  await get(`${API}/websites`, apiKey(c.freePlanKey), 403);
  await get(`${API}/analytics/${UNKNOWN_ID}`, apiKey(c.key), 404);
  await get(`${API}/websites/${UNKNOWN_ID}`, apiKey(c.key), 404);
  await get(`${API}/analytics/${first.id}?range=7d&timeRange=30d`, apiKey(c.key), 400);
  // Query parameters an operation does not list are refused.
  await get(`${API}/websites?page=2`, apiKey(c.key), 400);
  await get(`${API}/analytics/${first.id}/technology?offset=10`, apiKey(c.key), 400);
  const query = (json: unknown) =>
    check.send({
      kind: 'allowed',
      method: 'POST',
      path: `${API}/query/${first.id}`,
      headers: apiKey(c.key),
      json,
      status: 400,
    });
  await query({ metrics: ['visitors'], date_range: ['2024-01-01', '2025-06-01'] });
  await query({ metrics: ['visitors'], dimensions: ['time:hour'], date_range: '90d' });
  await query({ metrics: ['visitors'], filters: [['is', 'time:day', ['2026-01-01']]] });
  await query({ metrics: ['conversion_rate'], dimensions: ['page'] });
  await query({ metrics: ['visitors', 'visitors'] });

  // One request a minute: the first is answered, the next is over the limit.
  await get(`${API}/websites`, apiKey(c.oneRpmKey), 200);
  await get(`${API}/websites`, apiKey(c.oneRpmKey), 429);

  // The per-user limits of webhook management: reached directly, then once more through Prism.
  const direct = async (path: string, json?: unknown) => {
    const response = await fetch(`${stack.facadeUrl}${WEBHOOKS}${path}`, {
      method: 'POST',
      headers: { ...bearer(c.otherToken), 'content-type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return (await response.json()) as Envelope;
  };
  const hookId = String((await direct('', { url: `${receiverUrl}/limit/0` })).data?.id);
  for (let i = 1; i < 20; i += 1) await direct('', { url: `${receiverUrl}/limit/${i}` });
  await check.send({
    kind: 'allowed',
    method: 'POST',
    path: WEBHOOKS,
    headers: bearer(c.otherToken),
    json: { url: `${receiverUrl}/limit/20` },
    status: 409,
  });
  for (let i = 0; i < 10; i += 1) await direct(`/${hookId}/test`);
  await check.send({
    kind: 'allowed',
    method: 'POST',
    path: `${WEBHOOKS}/${hookId}/test`,
    headers: bearer(c.otherToken),
    status: 429,
  });
}

/** Requests the document refuses: the facade's answer must still be a documented one. */
async function refusedRequests(check: Checker, c: Credentials): Promise<void> {
  const [first] = c.websites;
  const key = apiKey(c.key);
  const get = (path: string, headers: Record<string, string>, status: number) =>
    check.send({ kind: 'refused', method: 'GET', path, headers, status });
  await get(`${API}/websites`, {}, 401);
  await get(`${API}/analytics/${first.id}?range=2d`, key, 400);
  await get(`${API}/analytics/${first.id}/visitors?limit=0`, key, 400);
  await get(`${API}/analytics/${first.id}/pages?limit=1.5`, key, 400);
  await get(`${API}/analytics/${first.id}/sources?offset=-1`, key, 400);
  await get(`${API}/analytics/${first.id}/countries?offset=2000000001`, key, 400);
  await get(`${API}/nothing-here`, key, 404);
  await check.send({
    kind: 'refused',
    method: 'DELETE',
    path: `${API}/websites`,
    headers: key,
    status: 405,
  });
  await check.send({ kind: 'refused', method: 'POST', path: '/tracker.js', status: 405 });
  const query = (headers: Record<string, string>, body: string, status: number) =>
    check.send({
      kind: 'refused',
      method: 'POST',
      path: `${API}/query/${first.id}`,
      headers: { ...key, ...headers },
      body,
      status,
    });
  const asJson = { 'content-type': 'application/json' };
  await query(asJson, JSON.stringify({ metrics: [] }), 400);
  await query(asJson, JSON.stringify({ metrics: ['visitors'], limit: 0 }), 400);
  // Not a body that does not parse: Prism 5.16 never answers one (stoplightio/prism#2664).
  await query({ 'content-type': 'text/plain' }, JSON.stringify({ metrics: ['visitors'] }), 415);
  await query(asJson, JSON.stringify({ metrics: ['visitors'], pad: 'x'.repeat(70_000) }), 413);
  await check.send({
    kind: 'refused',
    method: 'POST',
    path: '/api/collect',
    headers: BROWSER,
    json: { type: 'pageview', trackingCode: first.trackingCode },
    status: 400,
  });
  await check.send({
    kind: 'refused',
    method: 'POST',
    path: '/api/collect',
    headers: { ...BROWSER, 'content-type': 'application/xml' },
    body: '<pageview/>',
    status: 400,
  });
  await check.send({ kind: 'refused', method: 'GET', path: WEBHOOKS, status: 401 });
  await check.send({
    kind: 'refused',
    method: 'POST',
    path: `${WEBHOOKS}/${UNKNOWN_ID}/alerts`,
    headers: bearer(c.token),
    json: { spike_ratio: 1 },
    status: 400,
  });
  await check.send({
    kind: 'refused',
    method: 'POST',
    path: WEBHOOKS,
    headers: bearer(c.token),
    json: { url: 'https://hooks.prism.test/', event_types: ['no.such_event'] },
    status: 400,
  });
  await check.send({
    kind: 'refused',
    method: 'DELETE',
    path: `${WEBHOOKS}/${UNKNOWN_ID}`,
    status: 401,
  });
}

/** A webhook receiver on loopback that answers 200 to everything. */
async function startReceiver() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const program = new Command()
  .name('check:prism')
  .description("Requests through Prism's validating proxy; exits 1 on any violation")
  .option(
    '--document <file>',
    'the OpenAPI document to check (default: the one the facade serves)',
  );

async function main(): Promise<number> {
  const options = program.parse().opts<{ document?: string }>();
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 1000);
  const stack = await startPrismStack(LOG_DIR, say);
  const proxies: PrismProxy[] = [];
  const receiver = await startReceiver();
  // One stop, however many ask for it: a signal's, then main's own when its work fails.
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const proxy of proxies) await proxy.stop();
      await receiver.close();
      await stack.stop();
    })());
  // Stopped from outside (Ctrl+C, a CI timeout): nothing it started outlives it.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      say(`${signal}: stopping`);
      void stopAll().finally(() => process.exit(1));
    });
  try {
    const documentFile = path.join(LOG_DIR, 'openapi.json');
    if (options.document) copyFileSync(options.document, documentFile);
    else {
      // The document as a client reads it.
      const served = await fetch(`${stack.facadeUrl}${API}/openapi.json`);
      if (!served.ok) throw new Error(`GET ${API}/openapi.json answered ${served.status}`);
      writeFileSync(documentFile, await served.text());
    }
    const proxy = (errors: boolean) =>
      startPrismProxy(documentFile, stack.facadeUrl, {
        errors,
        logFile: path.join(LOG_DIR, `prism-${errors ? 'strict' : 'lenient'}.log`),
      });
    const [credentials, strict, lenient] = await Promise.all([
      createCredentials(stack.adminEnv),
      proxy(true),
      proxy(false),
    ]);
    proxies.push(strict, lenient);
    say(`stack, credentials and proxies ready after ${seconds()} s`);

    const check = new Checker(strict, lenient);
    await collect(check, stack, credentials);
    await eventsApplied(stack, credentials);
    await accountAndAnalytics(check, credentials);
    await publicRoutes(check, credentials);
    await serverEvents(check, credentials);
    await webhooks(check, credentials, receiver.url);
    await allowedErrors(check, credentials, stack, receiver.url);
    await refusedRequests(check, credentials);

    const failed = report(check.outcomes);
    const notSent = operationsNotSent(documentFile, check.outcomes);
    for (const operation of notSent)
      console.log(`FAIL ${operation}: the check sends it nothing (add an exchange for it)`);
    const violations = check.outcomes.reduce((n, o) => n + o.violations.length, 0);
    console.log(
      `prism: ${check.outcomes.length} exchanges, ${violations} violations in ${seconds()} s (logs: ${path.relative(process.cwd(), LOG_DIR)}/)`,
    );
    console.log(
      `prism: ${check.outcomes.length - failed} passed, ${failed + notSent.length} failed`,
    );
    return failed + notSent.length > 0 ? 1 : 0;
  } finally {
    await stopAll();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
