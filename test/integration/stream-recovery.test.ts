import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../../common/platform/redis';
import { callLogStream } from '../../common/contracts/call-log';
import { createLogger } from '../../common/platform/logger';
import { platformEventStream } from '../../common/contracts/platform-events';
import { StreamConsumer, type StreamEntry } from '../../common/platform/stream-consumer';
import { analyticsEventStream } from '../../common/contracts/collected-event';
import { callApi } from '../support/api-client';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { graphql, http } from '../support/http';
import { captureLogs } from '../support/log-capture';
import { openTestRedis, testKeyPrefix } from '../support/redis';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { api, collect, IP, UA } from './analytics-helpers';
import { waitUntilIdle } from '../support/ingest-idle';

const RECREATED = 'stream consumer group was missing (Redis lost its data?); recreated it';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The log lines that say a group was recreated, per stream. */
const recoveries = (logs: ReturnType<typeof captureLogs>, stream: string) =>
  logs.records().filter((entry) => entry.msg.startsWith(RECREATED) && entry.stream === stream);

describe('stream pipelines after Redis lost their stream', () => {
  let stack: Stack;
  let redis: RedisClient;
  let receiver: WebhookReceiver;
  const logs = captureLogs();

  beforeAll(async () => {
    stack = await startStack(
      'stream-recovery',
      { LOG_LEVEL: 'warn', TRUSTED_PROXIES: 'loopback', WEBHOOK_ALLOW_LOOPBACK: 'true' },
      logs.sink,
    );
    redis = await openTestRedis(stack.env.REDIS_URL!);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    redis.disconnect();
    await receiver.close();
    await stack.stop();
  });

  const prefix = () => stack.env.REDIS_KEY_PREFIX!;

  it('when the call-log stream is deleted, then the calls made afterwards all reach the key’s log without a restart, and the recovery is logged once', async () => {
    const account = await buildAccount(stack, { plan: 'enterprise' });
    const { apiKey, key } = await buildApiKey(stack, account);
    const { token } = await buildAccessToken(stack, account.user.id);
    const loggedIds = async () => {
      const response = await graphql<{ apiKey: { calls: { nodes: Array<{ id: string }> } } }>(
        stack.gateway.graphqlUrl,
        `
          query ($id: ID!) {
            apiKey(id: $id) {
              calls(first: 100) {
                nodes {
                  id
                }
              }
            }
          }
        `,
        { id: apiKey.id },
        { authorization: `Bearer ${token}` },
      );
      expect(response.status).toBe(200);
      return response.body.data!.apiKey.calls.nodes.map((node) => node.id);
    };
    const call = async () =>
      expect((await callApi(stack, 'GET', '/websites', { key })).status).toBe(200);
    for (let i = 0; i < 3; i += 1) await call();
    await waitFor(async () => (await loggedIds()).length === 3);

    await redis.del(callLogStream(prefix()));
    for (let i = 0; i < 20; i += 1) await call();

    const ids = await waitFor(async () => {
      const logged = await loggedIds();
      return logged.length === 23 && logged;
    }, 15_000);
    expect(new Set(ids).size).toBe(23);
    expect(recoveries(logs, callLogStream(prefix()))).toHaveLength(1);
    const ready = await http<{ checks: Record<string, string> }>(`${stack.keys.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.checks['call-log consumer']).toBe('ok');
  });

  it('when the analytics event stream is deleted, then events collected afterwards are all counted', async () => {
    const account = await buildAccount(stack, { plan: 'enterprise' });
    const site = account.websites[0]!;
    const { key } = await buildApiKey(stack, account);
    const pageviews = async () => {
      const response = await api<{ data: { summary: { pageviews: number } } }>(
        stack,
        key,
        `/analytics/${site.id}?range=24h`,
      );
      expect(response.status).toBe(200);
      return response.body.data.summary.pageviews;
    };
    const pageview = async (n: number) => {
      const response = await collect(
        stack,
        { ip: IP.us, ua: UA.chromeWindows },
        { trackingCode: site.trackingCode, type: 'pageview', url: `https://shop.example/${n}` },
      );
      expect(response.status).toBe(202);
    };
    await pageview(0);
    await waitUntilIdle(stack.analytics.services.ingest);
    expect(await pageviews()).toBe(1);

    await redis.del(analyticsEventStream(prefix()));
    for (let n = 1; n <= 20; n += 1) await pageview(n);

    // Waits for the group to have read and acknowledged everything in the recreated stream.
    await waitUntilIdle(stack.analytics.services.ingest);
    expect(await pageviews()).toBe(21);
    expect(recoveries(logs, analyticsEventStream(prefix()))).toHaveLength(1);
  });

  it('when the platform-event stream is deleted, then events published afterwards still reach the webhooks', async () => {
    const account = await buildAccount(stack, { plan: 'enterprise' });
    const { token } = await buildAccessToken(stack, account.user.id);
    const created = await http(`${stack.facade.url}/v1/cli/mutate/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(created.status).toBe(201);
    await buildApiKey(stack, account);
    await receiver.waitForRequests(1, 15_000);

    await redis.del(platformEventStream(prefix()));
    const keyIds: string[] = [];
    for (let i = 0; i < 5; i += 1) keyIds.push((await buildApiKey(stack, account)).apiKey.id);

    const requests = await receiver.waitForRequests(6, 15_000);
    const delivered = requests
      .slice(1)
      .map((r) => JSON.parse(r.rawBody.toString('utf8')) as { data: { key_id: string } });
    expect(delivered.map((event) => event.data.key_id).sort()).toEqual([...keyIds].sort());
    expect(recoveries(logs, platformEventStream(prefix()))).toHaveLength(1);
  });
});

describe('StreamConsumer after its group or stream vanished', () => {
  let redis: RedisClient;
  let stream: string;
  beforeEach(async () => {
    redis = await openTestRedis(redisUrl);
    // Tagged as the services' streams are: its lease shares its cluster slot.
    stream = `${testKeyPrefix(`recovery_${randomBytes(4).toString('hex')}`)}{recovery}`;
  });
  afterEach(async () => {
    await redis.del(stream, `${stream}:lease`);
    redis.disconnect();
  });

  /**
   * A consumer of this test's stream that records each entry's `n` and logs into `logs`; like
   * every consumer in the services, it deletes what it acknowledged.
   */
  function recording(
    logs: ReturnType<typeof captureLogs>,
    overrides: Partial<ConstructorParameters<typeof StreamConsumer>[0]> = {},
  ) {
    const seen: string[] = [];
    const consumer = new StreamConsumer({
      redis,
      stream,
      group: 'g',
      logger: createLogger('stream-recovery-test', 'info', logs.sink),
      blockMs: 50,
      deleteAcknowledged: true,
      handle: async (entries: StreamEntry[]) => {
        for (const entry of entries) seen.push(entry.fields.n!);
      },
      ...overrides,
    });
    return { seen, consumer };
  }

  const append = async (from: number, to: number) => {
    for (let n = from; n < to; n += 1) await redis.xadd(stream, '*', 'n', String(n));
  };
  const warnings = (logs: ReturnType<typeof captureLogs>) =>
    logs.records().filter((entry) => ['warn', 'error', 'fatal'].includes(entry.level));

  it.each<[string, (redis: RedisClient, stream: string) => Promise<unknown>]>([
    ['its stream key is deleted (FLUSHALL, a restart without persistence)', (r, s) => r.del(s)],
    [
      'its group is destroyed (a failover to a replica without it)',
      (r, s) => r.xgroup('DESTROY', s, 'g'),
    ],
  ])(
    'when %s while it waits, then it recreates the group, warns once, and handles what is appended afterwards',
    async (_case, lose) => {
      const logs = captureLogs();
      const { seen, consumer } = recording(logs);
      await consumer.start();
      await append(0, 5);
      await waitFor(async () => seen.length === 5);

      await lose(redis, stream);
      await append(5, 15);
      await waitFor(async () => seen.length === 15, 5_000);
      await consumer.stop();

      expect(seen).toEqual(Array.from({ length: 15 }, (_, n) => String(n)));
      expect(warnings(logs).map((entry) => entry.msg)).toEqual([
        `${RECREATED} from the start of the stream`,
      ]);
    },
  );

  it('when every key is lost while a batch is in hand, then the batch completes without an error and the consumer carries on', async () => {
    const logs = captureLogs();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const seen: string[] = [];
    const { consumer } = recording(logs, {
      exclusive: { leaseKey: `${stream}:lease`, leaseMs: 600 },
      retry: { maxAttempts: 3 },
      handle: async (entries, stillLeased) => {
        if (entries.some((entry) => entry.fields.n === '0')) await held;
        await stillLeased();
        for (const entry of entries) seen.push(entry.fields.n!);
      },
    });
    await append(0, 3);
    await consumer.start();
    await waitFor(async () => Number((await redis.xpending(stream, 'g'))[0]) === 3);

    await redis.del(stream, `${stream}:lease`);
    release();
    await append(3, 6);
    await waitFor(async () => seen.length === 6, 5_000);
    await consumer.stop();

    expect(seen).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(warnings(logs).map((entry) => entry.msg)).toEqual([
      `${RECREATED} from the start of the stream`,
    ]);
  });

  it('when entries wait and the consumer makes no progress past its threshold, then its readiness check fails naming the stream, and passes again once it handled them', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { seen, consumer } = recording(captureLogs(), {
      stallAfterMs: 300,
      handle: async (entries: StreamEntry[]) => {
        await held;
        for (const entry of entries) seen.push(entry.fields.n!);
      },
    });
    const check = consumer.readinessCheck('test consumer');
    await consumer.start();
    await append(0, 3);
    await expect(check.check()).resolves.toBeUndefined();

    const reason = await waitFor(async () =>
      check.check().then(
        () => false,
        (error: Error) => error.message,
      ),
    );
    expect(reason).toContain(`${stream} g: no progress`);

    release();
    await waitFor(async () => seen.length === 3);
    await waitFor(async () =>
      check.check().then(
        () => true,
        () => false,
      ),
    );
    await consumer.stop();
  });

  it('when its group is missing, then the readiness check fails until the group is recreated', async () => {
    const { consumer } = recording(captureLogs());
    const check = consumer.readinessCheck('test consumer');
    await consumer.start();
    await consumer.stop();
    await redis.del(stream);
    await expect(check.check()).rejects.toThrow(`${stream}: consumer group g is missing`);

    await consumer.start();
    await waitFor(async () =>
      check.check().then(
        () => true,
        () => false,
      ),
    );
    await consumer.stop();
  });
});
