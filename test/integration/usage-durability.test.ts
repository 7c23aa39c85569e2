import type { RedisClient } from '../../common/platform/redis';
import { callApi } from '../support/api-client';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { graphql } from '../support/http';
import { deleteKeysMatching, openTestRedis } from '../support/redis';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';

type CallsPage = {
  apiKey: {
    usage: { totalRequests: number };
    calls: { nodes: Array<{ requestId: string | null }>; hasNextPage: boolean; endCursor: string };
  };
};

/**
 * The counters of the limits live in Redis; the call log and the usage ledger beside it in MongoDB
 * (docs/api.md, "Counts that survive a Redis loss").
 */
describe('usage counts and the call log when Redis loses its data', () => {
  let stack: Stack;
  let redis: RedisClient;

  beforeAll(async () => {
    stack = await startStack('usage-durability', { WEBHOOK_WORKERS_ENABLED: 'false' });
    redis = await openTestRedis(stack.env.REDIS_URL!);
  });
  afterAll(async () => {
    redis.disconnect();
    await stack.stop();
  });

  const consumer = () => stack.keys.services.callLogConsumer;
  const loseRedisData = () => deleteKeysMatching(redis, `${stack.env.REDIS_KEY_PREFIX}*`);

  /** Every call in the key's log, by request id (page by page, through the gateway). */
  async function loggedRequestIds(token: string, keyId: string): Promise<string[]> {
    const ids: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: Awaited<ReturnType<typeof graphql<CallsPage>>> = await graphql<CallsPage>(
        stack.gateway.graphqlUrl,
        `
          query ($id: ID!, $after: String) {
            apiKey(id: $id) {
              usage {
                totalRequests
              }
              calls(first: 100, after: $after) {
                nodes {
                  requestId
                }
                hasNextPage
                endCursor
              }
            }
          }
        `,
        { id: keyId, after },
        { authorization: `Bearer ${token}` },
      );
      const calls = page.body.data!.apiKey.calls;
      ids.push(...calls.nodes.map((node) => node.requestId ?? 'none'));
      if (!calls.hasNextPage) return ids;
      after = calls.endCursor;
    }
  }

  it('LIM-4 LIM-6 PLAT-1: when Redis loses its data while answered calls wait to be logged, then the month and the key go on from the log (no header goes back), the quota holds, and every call is logged once', async () => {
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMinute: 1_000, requestsPerMonth: 20 },
    });
    const { key, apiKey } = await buildApiKey(stack, account);
    const { token } = await buildAccessToken(stack, account.user.id);
    const requestIds: string[] = [];
    const call = async () => {
      const response = await callApi(stack, 'GET', '/websites', { key });
      requestIds.push(response.headers.get('x-request-id')!);
      return response;
    };
    for (let n = 1; n <= 8; n += 1) expect((await call()).status).toBe(200);

    // The call log's consumer stands still: what it has not stored is in the stream only.
    await consumer().stop();
    let before: Awaited<ReturnType<typeof call>>;
    let after: Awaited<ReturnType<typeof call>>;
    try {
      for (let n = 9; n <= 12; n += 1) expect((await call()).status).toBe(200);
      before = await call();
      await loseRedisData();
      after = await call();
    } finally {
      await consumer().start();
    }
    expect(before.headers.get('x-usage-monthly')).toBe('13');
    expect(before.headers.get('x-usage-total')).toBe('13');
    expect(after.status).toBe(200);
    expect(after.headers.get('x-usage-monthly')).toBe('14');
    expect(after.headers.get('x-usage-total')).toBe('14');

    const rest = [];
    for (let n = 15; n <= 21; n += 1) rest.push(await call());
    expect(rest.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect(rest.at(-1)!.body).toMatchObject({ error: { code: 'MONTHLY_LIMIT_EXCEEDED' } });
    expect(rest.at(-1)!.headers.get('x-usage-total')).toBe('21');

    await stack.facade.deps.callLog.flush();
    await waitFor(async () => (await loggedRequestIds(token, apiKey.id)).length >= 21);
    await consumer().drain();
    const logged = await loggedRequestIds(token, apiKey.id);
    expect([...logged].sort()).toEqual([...requestIds].sort());
  });

  it('LIM-4: when one batch of the call log holds calls of two keys of an organization, then the month counts the quota requests of both, once', async () => {
    const { ledger } = stack.keys.services;
    const organizationId = 'org-two-keys';
    const at = new Date();
    const month = `${organizationId}|${at.toISOString().slice(0, 7)}`;
    const day = at.toISOString().slice(0, 10);
    const calls = (keyId: string, count: number) => ({
      keyId,
      firstAt: at,
      lastAt: at,
      packed: '{}',
      usage: { days: { [day]: count }, quota: { [month]: count } },
    });
    const batch = { batchId: 'batch-two-keys', keys: [calls('key-a', 3), calls('key-b', 2)] };

    await ledger.add([batch]);
    await ledger.add([batch]); // delivered again

    expect(await ledger.forMonth(organizationId, at)).toBe(5);
    expect((await ledger.forKey('key-a')).total).toBe(3);
    expect((await ledger.forKey('key-b')).total).toBe(2);
  });

  it('LIM-6 KEY-1: when Redis loses its data and the key is not called again, then the dashboard still shows its totals, from the ledger', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key, apiKey } = await buildApiKey(stack, account);
    const { token } = await buildAccessToken(stack, account.user.id);
    for (let n = 0; n < 3; n += 1)
      expect((await callApi(stack, 'GET', '/usage', { key })).status).toBe(200);
    await stack.facade.deps.callLog.flush();
    await consumer().drain();

    await loseRedisData();

    const usage = await graphql<{
      apiKey: { usage: { totalRequests: number; recentActivity: Array<{ requests: number }> } };
    }>(
      stack.gateway.graphqlUrl,
      `
        query ($id: ID!) {
          apiKey(id: $id) {
            usage {
              totalRequests
              recentActivity {
                requests
              }
            }
          }
        }
      `,
      { id: apiKey.id },
      { authorization: `Bearer ${token}` },
    );
    expect(usage.body.data!.apiKey.usage.totalRequests).toBe(3);
    expect(usage.body.data!.apiKey.usage.recentActivity.at(-1)!.requests).toBe(3);
  });
});
