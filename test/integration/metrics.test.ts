import { randomBytes } from 'node:crypto';
import { callLogStream } from '../../common/contracts/call-log';
import { ConfigError } from '../../common/platform/config';
import { createLogger } from '../../common/platform/logger';
import { metricsAccess } from '../../common/platform/metrics';
import {
  buildEvent,
  platformEventStream,
  publishPlatformEvent,
} from '../../common/contracts/platform-events';
import { createRedis } from '../../common/platform/redis';
import { startGateway, type RunningGateway } from '../../gateway/src/app';
import { loadGatewayConfig } from '../../gateway/src/config';
import { startFacade, type RunningFacade } from '../../rest-facade/src/app';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import {
  ANALYTICS_CONSUMER_GROUP,
  analyticsEventStream,
} from '../../common/contracts/collected-event';
import { CONSUMER_GROUP as WEBHOOKS_CONSUMER_GROUP } from '../../subgraphs/webhooks/src/delivery/platform-event-consumer';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { graphql, http } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comment lines left out). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[name!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** What one scrape said: the sum of the samples named `name` that carry `labels`; null if none. */
class Scrape {
  constructor(readonly samples: Sample[]) {}

  value(name: string, labels: Record<string, string> = {}): number | null {
    const matching = this.samples.filter(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    );
    return matching.length === 0 ? null : matching.reduce((sum, s) => sum + s.value, 0);
  }

  /** How much `value` grew since `before` (a series absent before counts from 0). */
  since(before: Scrape, name: string, labels: Record<string, string> = {}): number {
    return (this.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
  }
}

async function scrape(baseUrl: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(`${baseUrl}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return new Scrape(parseExposition(await response.text()));
}

const REQUESTS = 'http_request_duration_seconds_count';
const OPERATIONS = 'graphql_operation_duration_seconds_count';
/** Collection counts browsers only (clients without a browser's user agent are taken for bots). */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

describe('GET /metrics on every service', () => {
  let stack: Stack;
  let publisher: ReturnType<typeof createRedis>;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await startStack('metrics', { WEBHOOK_ALLOW_LOOPBACK: 'true' });
    publisher = createRedis(stack.env.REDIS_URL!);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    publisher.disconnect();
    await stack.stop();
  });

  it('when a Pro key calls a route past its per-minute limit, then the facade counts the calls under the route pattern by status, and the 429 under plan pro', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    const websiteId = account.websites[0]!.id;
    const before = await scrape(stack.facade.url);

    const statuses: number[] = [];
    for (let call = 0; call < 31; call += 1) {
      const response = await http(`${stack.facade.url}/api/external/v1/websites/${websiteId}`, {
        headers: { 'x-api-key': key },
      });
      statuses.push(response.status);
    }
    const after = await scrape(stack.facade.url);

    expect(statuses).toEqual([...Array<number>(30).fill(200), 429]); // Pro: 30 per minute
    const route = {
      service: 'rest-facade',
      method: 'GET',
      route: '/api/external/v1/websites/:websiteId',
    };
    expect(after.since(before, REQUESTS, { ...route, status: '200' })).toBe(30);
    expect(after.since(before, REQUESTS, { ...route, status: '429' })).toBe(1);
    expect(
      after.samples.some((s) => Object.values(s.labels).some((v) => v.includes(websiteId))),
    ).toBe(false);
    expect(after.since(before, 'api_limit_refusals_total', { plan: 'pro', kind: 'minute' })).toBe(
      1,
    );
    expect(after.value('api_limit_refusals_total', { plan: 'pro', kind: 'month' })).toBe(0);
    // The key is loaded once, then each call finds it cached and current.
    expect(after.since(before, 'credential_cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(after.since(before, 'credential_cache_lookups_total', { result: 'hit' })).toBe(30);
    expect(after.value('credential_cache_lookups_total', { result: 'outage' })).toBe(0);
  });

  it('when a page view is collected, then the facade times POST /api/collect and analytics counts the event applied and reports its stream without backlog', async () => {
    const account = await buildAccount(stack);
    const website = account.websites[0]!;
    const [facadeBefore, analyticsBefore] = await Promise.all([
      scrape(stack.facade.url),
      scrape(stack.analytics.url),
    ]);

    const response = await http<{ accepted: boolean }>(`${stack.facade.url}/api/collect`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'user-agent': BROWSER },
      body: JSON.stringify({
        trackingCode: website.trackingCode,
        type: 'pageview',
        url: 'https://shop.example/',
      }),
    });
    // Accepted, then appended to the stream and applied in the background.
    const analyticsAfter = await waitFor(async () => {
      const now = await scrape(stack.analytics.url);
      return now.since(analyticsBefore, 'analytics_events_applied_total') > 0 && now;
    });
    const facadeAfter = await scrape(stack.facade.url);

    expect(response.status).toBe(202);
    expect(response.body.accepted).toBe(true);
    expect(
      facadeAfter.since(facadeBefore, REQUESTS, {
        method: 'POST',
        route: '/api/collect',
        status: '202',
      }),
    ).toBe(1);
    expect(analyticsAfter.since(analyticsBefore, 'analytics_events_applied_total')).toBe(1);
    const stream = {
      service: 'analytics',
      stream: analyticsEventStream(stack.env.REDIS_KEY_PREFIX!),
      group: ANALYTICS_CONSUMER_GROUP,
    };
    expect(analyticsAfter.value('stream_backlog_entries', stream)).toBe(0);
    expect(analyticsAfter.value('stream_consumer_lag_entries', stream)).toBe(0);
    expect(analyticsAfter.value('stream_pending_entries', stream)).toBe(0);
  });

  it('when a platform event is delivered to a webhook, then webhooks counts a successful first attempt and reports its queue by state and its stream', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const created = await http(`${stack.facade.url}/v1/cli/mutate/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, event_types: ['api_key.created'] }),
    });
    expect(created.status).toBe(201);
    const before = await scrape(stack.webhooks.url);

    const event = buildEvent('api_key.created', account.user.id, null, { key_id: 'k1' });
    await publishPlatformEvent(publisher, stack.env.REDIS_KEY_PREFIX!, event);
    await receiver.waitForRequests(1);
    const success = { service: 'webhooks', outcome: 'success', attempt: '1' };
    const after = await waitFor(async () => {
      const now = await scrape(stack.webhooks.url);
      return now.since(before, 'webhook_deliveries_total', success) === 1 && now;
    });

    const facade = await scrape(stack.facade.url);
    expect(
      facade.value(REQUESTS, { method: 'POST', route: '/v1/cli/mutate/webhooks', status: '201' }),
    ).toBe(1);
    for (const state of ['waiting', 'active', 'delayed', 'completed', 'failed'])
      expect(after.value('webhook_queue_jobs', { state })).toEqual(expect.any(Number));
    expect(
      after.value('stream_backlog_entries', {
        stream: platformEventStream(stack.env.REDIS_KEY_PREFIX!),
        group: WEBHOOKS_CONSUMER_GROUP,
      }),
    ).toEqual(expect.any(Number));
  });

  it('when a dashboard token runs a named GraphQL operation, then the gateway and the keys subgraph time it by operation name', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const [gatewayBefore, keysBefore] = await Promise.all([
      scrape(stack.gateway.url),
      scrape(stack.keys.url),
    ]);

    const response = await graphql(
      stack.gateway.graphqlUrl,
      'query MetricsProbe { me { id } }',
      {},
      { authorization: `Bearer ${token}` },
    );
    const [gatewayAfter, keysAfter] = await Promise.all([
      scrape(stack.gateway.url),
      scrape(stack.keys.url),
    ]);

    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(gatewayAfter.since(gatewayBefore, OPERATIONS, { operation: 'MetricsProbe' })).toBe(1);
    expect(
      gatewayAfter.since(gatewayBefore, REQUESTS, {
        method: 'POST',
        route: '/graphql',
        status: '200',
      }),
    ).toBe(1);
    // The query planner names the subgraph's part after the operation (`MetricsProbe__keys__0`).
    const planned = keysAfter.samples.filter(
      (s) => s.name === OPERATIONS && s.labels.operation?.startsWith('MetricsProbe__keys'),
    );
    expect(planned).toHaveLength(1);
    expect(keysAfter.since(keysBefore, OPERATIONS, planned[0]!.labels)).toBe(1);
  });

  it('when each service is scraped, then its series carry its name, and the subgraphs report their MongoDB circuit closed, no MongoDB error and their stream consumers', async () => {
    const services = {
      'rest-facade': stack.facade.url,
      gateway: stack.gateway.url,
      analytics: stack.analytics.url,
      keys: stack.keys.url,
      webhooks: stack.webhooks.url,
    };
    for (const url of Object.values(services))
      expect((await http(`${url}/healthz`)).status).toBe(200);
    const scrapes = Object.fromEntries(
      await Promise.all(
        Object.entries(services).map(async ([name, url]) => [name, await scrape(url)] as const),
      ),
    );

    for (const [name, result] of Object.entries(scrapes)) {
      expect(
        result.value(REQUESTS, { method: 'GET', route: '/healthz', status: '200' }),
      ).toBeGreaterThanOrEqual(1);
      expect(result.samples.every((s) => s.labels.service === name)).toBe(true);
      // Process series are left to production mains: tests run many stacks in one process.
      expect(result.value('process_cpu_user_seconds_total')).toBeNull();
    }
    for (const name of ['analytics', 'keys', 'webhooks']) {
      expect(scrapes[name]!.value('mongodb_circuit_open')).toBe(0);
      expect(scrapes[name]!.value('mongodb_errors_total')).toBe(0);
    }
    expect(
      scrapes.keys!.value('stream_backlog_entries', {
        stream: callLogStream(stack.env.REDIS_KEY_PREFIX!),
        group: 'keys-call-log',
      }),
    ).toEqual(expect.any(Number));
    expect(scrapes['rest-facade']!.value('mongodb_circuit_open')).toBeNull();
  });

  describe('on the public ports in production', () => {
    const token = randomBytes(32).toString('hex');
    const started: Array<RunningFacade | RunningGateway> = [];
    const logger = createLogger('metrics-test', 'silent');
    const production = (extra: Record<string, string>) => ({
      ...stack.env,
      ...stack.subgraphEnv,
      NODE_ENV: 'production',
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...extra,
    });
    const startBoth = async (extra: Record<string, string>) => {
      const facade = await startFacade(loadFacadeConfig(production(extra)), logger);
      started.push(facade);
      const gateway = await startGateway(loadGatewayConfig(production(extra)), logger);
      started.push(gateway);
      return { facade: facade.url, gateway: gateway.url };
    };
    afterAll(async () => {
      for (const service of started) await service.stop();
    });

    it('when METRICS_TOKEN is set, then a scrape of the facade or the gateway without it or with another token is refused with 401, and one with it is answered, process series included', async () => {
      const urls = await startBoth({ METRICS_TOKEN: token });

      for (const url of Object.values(urls)) {
        const anonymous = await http(`${url}/metrics`);
        const wrong = await http(`${url}/metrics`, {
          headers: { authorization: `Bearer ${'0'.repeat(64)}` },
        });
        const scraped = await scrape(url, { authorization: `Bearer ${token}` });

        expect(anonymous.status).toBe(401);
        expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
        expect(JSON.stringify(anonymous.body)).not.toContain('http_request_duration_seconds');
        expect(wrong.status).toBe(401);
        expect(scraped.value('process_cpu_user_seconds_total')).toEqual(expect.any(Number));
      }
      const facadeRefusal = await http<{ success: boolean; error: { code: string } }>(
        `${urls.facade}/metrics`,
      );
      expect(facadeRefusal.body).toMatchObject({ success: false, error: { code: 'unauthorized' } });
    });

    it('when METRICS_TOKEN is not set, then the facade and the gateway do not serve /metrics (404), while a subgraph port, internal, still would', async () => {
      const urls = await startBoth({});

      for (const url of Object.values(urls)) {
        const response = await http(`${url}/metrics`, { headers: { accept: '*/*' } });
        expect(response.status).toBe(404);
        expect(JSON.stringify(response.body)).not.toContain('http_request_duration_seconds');
      }
      expect(metricsAccess({ nodeEnv: 'production', metricsToken: null }, 'internal')).toEqual({
        served: true,
        token: null,
      });
    });
  });

  it('when METRICS_TOKEN is shorter than 32 characters, then the configuration is refused naming it, without echoing it', () => {
    const load = () => loadFacadeConfig({ ...stack.env, METRICS_TOKEN: 'too-short-a-token' });

    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/METRICS_TOKEN: must be at least 32 characters/);
    expect(load).not.toThrow(/too-short-a-token/);
  });
});
