import { once } from 'node:events';
import { connect } from 'node:net';
import type { RedisClient } from '../../common/platform/redis';
import { usageKeys } from '../../common/contracts/usage-keys';
import { keysMatching, openTestRedis } from '../support/redis';
import mongoose from 'mongoose';
import { platformEventStream, type PlatformEvent } from '../../common/contracts/platform-events';
import { createKeysModels } from '../../subgraphs/keys/src/models';
import { KeyExpiryJob, STALE_CLAIM_MS } from '../../subgraphs/keys/src/services/key-expiry.job';
import { sha256Hex } from '../../common/platform/secrets';
import { callApi } from '../support/api-client';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { graphql, http } from '../support/http';
import { captureLogs } from '../support/log-capture';
import { startStack, testMongoUri, type Stack } from '../support/stack';
import { startTcpProxy } from '../support/tcp-proxy';
import { waitFor, waitUntil } from '../support/wait';
import { startFacade } from '../../rest-facade/src/app';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import { createLogger } from '../../common/platform/logger';

const DAY = 86_400_000;

describe('API key lifecycle through the dashboard GraphQL', () => {
  let stack: Stack;
  let redis: RedisClient;
  const { lines: logLines, sink } = captureLogs();

  beforeAll(async () => {
    stack = await startStack(
      'key-lifecycle',
      { LOG_LEVEL: 'debug', WEBHOOK_WORKERS_ENABLED: 'false', TRUSTED_PROXIES: '' },
      sink,
    );
    redis = await openTestRedis(stack.env.REDIS_URL!);
  });
  afterAll(async () => {
    redis.disconnect();
    await keysConnection?.close();
    await stack.stop();
  });

  // Results are read field by field in each test; typing every query's shape adds nothing here.
  const dashboard = (token: string, query: string, variables: Record<string, unknown> = {}) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    graphql<Record<string, any>>(stack.gateway.graphqlUrl, query, variables, {
      authorization: `Bearer ${token}`,
    });

  /** The key's logged calls on `endpoint`, once at least `count` are stored (the log is batched). */
  async function loggedCalls(token: string, keyId: string, endpoint: string, count = 1) {
    const query = `query ($id: ID!, $endpoint: String) {
      apiKey(id: $id) { calls(endpoint: $endpoint, first: 10) { nodes { path status ip } } } }`;
    return waitFor(async () => {
      await stack.facade.deps.callLog.flush();
      await stack.keys.services.callLogConsumer.drain();
      const response = await dashboard(token, query, { id: keyId, endpoint });
      const nodes: Array<{ path: string; status: number; ip: string }> =
        response.body.data!.apiKey.calls.nodes;
      return nodes.length >= count && nodes;
    });
  }

  /** The keys subgraph's models on a connection of the test's own, closed after the tests. */
  let keysConnection: mongoose.Connection | undefined;
  async function keysModels() {
    keysConnection ??= await mongoose
      .createConnection(testMongoUri(`${stack.id}_keys`))
      .asPromise();
    return createKeysModels(keysConnection);
  }

  /** What an instance that claimed a 30-day warning at `at` and then stopped left behind. */
  async function leftClaimed(keyId: string, at: number) {
    const models = await keysModels();
    await models.ExpiryNotice.create({
      _id: `${keyId}:30`,
      keyId,
      daysBefore: 30,
      sentAt: new Date(at),
      pending: true,
    });
  }

  async function events(organizationId: string, type: string): Promise<PlatformEvent[]> {
    const entries = await redis.xrange(platformEventStream(stack.env.REDIS_KEY_PREFIX!), '-', '+');
    return entries
      .map(([, fields]) => JSON.parse(fields[1]!) as PlatformEvent)
      .filter((e) => e.type === type && e.organizationId === organizationId);
  }

  it('KEY-1 KEY-4 KEY-5: when a key is created, listed and read, then only creation shows the value and the list shows name, prefix, created and last used', async () => {
    const account = await buildAccount(stack, { websites: 2 });
    const { token } = await buildAccessToken(stack, account.user.id);
    const created = await dashboard(
      token,
      `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id name description prefix permissions websiteAccess websites { id } expiresAt } } }`,
      {
        input: {
          organizationId: account.organization.id,
          name: 'production',
          description: 'CI exporter',
          permissions: ['READ_ANALYTICS'],
          websiteIds: [account.websites[1]!.id],
          expiration: 'NINETY_DAYS',
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const { key, apiKey } = created.body.data!.createApiKey;
    expect(key).toMatch(/^svc_/);
    expect(apiKey).toMatchObject({
      name: 'production',
      description: 'CI exporter',
      permissions: ['READ_ANALYTICS'],
      websiteAccess: 'SELECTED',
      websites: [{ id: account.websites[1]!.id }],
    });
    expect(Math.round((new Date(apiKey.expiresAt).getTime() - Date.now()) / DAY)).toBe(90);
    expect(key.startsWith(apiKey.prefix)).toBe(true);

    expect((await callApi(stack, 'GET', '/usage', { key })).status).toBe(200);

    const listed = await dashboard(
      token,
      `query ($id: ID!) { organization(id: $id) { apiKeys { id name prefix createdAt lastUsedAt } } }`,
      { id: account.organization.id },
    );
    const row = listed.body.data!.organization.apiKeys[0];
    expect(Object.keys(row).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'prefix']);
    expect(row).toMatchObject({ id: apiKey.id, name: 'production', prefix: apiKey.prefix });
    expect(JSON.stringify(listed.body)).not.toContain(key);

    const details = await dashboard(
      token,
      `query ($id: ID!) { apiKey(id: $id) { usage { totalRequests recentActivity { date requests } } } }`,
      { id: apiKey.id },
    );
    const usage = details.body.data!.apiKey.usage;
    expect(usage.totalRequests).toBe(1);
    expect(usage.recentActivity).toHaveLength(30);
    expect(usage.recentActivity.at(-1)).toEqual({
      date: new Date().toISOString().slice(0, 10),
      requests: 1,
    });
  });

  it('KEY-1: when a key is first used on a day, then its recent activity keeps the last 31 days only and expires once the key goes unused', async () => {
    const account = await buildAccount(stack);
    const { key, apiKey } = await buildApiKey(stack, account);
    const daily = usageKeys(stack.env.REDIS_KEY_PREFIX!).keyDaily(apiKey.id);
    const dayAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);
    await redis.hset(daily, dayAgo(40), '7', dayAgo(31), '6', dayAgo(30), '5', dayAgo(3), '4');

    expect((await callApi(stack, 'GET', '/usage', { key })).status).toBe(200);
    expect((await callApi(stack, 'GET', '/usage', { key })).status).toBe(200);

    expect(await redis.hgetall(daily)).toEqual({
      [dayAgo(30)]: '5',
      [dayAgo(3)]: '4',
      [dayAgo(0)]: '2',
    });
    const ttl = await redis.pttl(daily);
    expect(ttl).toBeGreaterThan(30 * DAY);
    expect(ttl).toBeLessThanOrEqual(31 * DAY);
  });
  it('KEY-4: when keys are created and used, then their clear value is in no collection, no Redis key or value and no log line', async () => {
    const account = await buildAccount(stack);
    const { key } = await buildApiKey(stack, account);
    const { token } = await buildAccessToken(stack, account.user.id);
    await callApi(stack, 'GET', '/websites', { key });
    await callApi(stack, 'GET', '/websites', { headers: { authorization: `Bearer ${key}` } });
    await dashboard(token, '{ me { id } }');
    await stack.keys.services.callLogConsumer.drain();
    for (const name of ['keys', 'analytics', 'webhooks']) {
      const connection = await mongoose
        .createConnection(testMongoUri(`${stack.id}_${name}`))
        .asPromise();
      for (const collection of await connection.db!.listCollections().toArray()) {
        const documents = await connection.db!.collection(collection.name).find().toArray();
        const dump = JSON.stringify(documents);
        expect(dump).not.toContain(key);
        expect(dump).not.toContain(token);
      }
      await connection.close();
    }
    const logs = logLines.join('');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(token);
    // Every Redis key of this stack, by name and by value (strings, hashes, sets, sorted sets,
    // lists, streams: counters, caches, the call-log and event streams, queues).
    const redisKeys = await keysMatching(redis, `${stack.env.REDIS_KEY_PREFIX}*`);
    expect(redisKeys.length).toBeGreaterThan(0);
    for (const redisKey of redisKeys) {
      const dump = JSON.stringify([redisKey, await redisValue(redisKey)]);
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(token);
    }
  });

  async function redisValue(redisKey: string): Promise<unknown> {
    switch (await redis.type(redisKey)) {
      case 'string':
        return redis.get(redisKey);
      case 'hash':
        return redis.hgetall(redisKey);
      case 'set':
        return redis.smembers(redisKey);
      case 'zset':
        return redis.zrange(redisKey, 0, -1);
      case 'list':
        return redis.lrange(redisKey, 0, -1);
      case 'stream':
        return redis.xrange(redisKey, '-', '+');
      default:
        return null;
    }
  }

  it('KEY-8 KEY-9: when the owner regenerates then deletes a key through GraphQL, then each old value is refused at once and events are published', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const { key, apiKey } = await buildApiKey(stack, account);
    const regenerated = await dashboard(
      token,
      `mutation ($id: ID!) { regenerateApiKey(id: $id) { key apiKey { id prefix } } }`,
      { id: apiKey.id },
    );
    const newKey = regenerated.body.data!.regenerateApiKey.key as string;
    expect(newKey).not.toBe(key);
    expect((await callApi(stack, 'GET', '/usage', { key })).status).toBe(401);
    expect((await callApi(stack, 'GET', '/usage', { key: newKey })).status).toBe(200);
    const deleted = await dashboard(token, `mutation ($id: ID!) { deleteApiKey(id: $id) }`, {
      id: apiKey.id,
    });
    expect(deleted.body.data).toEqual({ deleteApiKey: true });
    expect((await callApi(stack, 'GET', '/usage', { key: newKey })).status).toBe(401);
    expect(
      (await events(account.organization.id, 'api_key.created')).map((e) => e.data.keyId),
    ).toEqual([apiKey.id]);
    expect(
      (await events(account.organization.id, 'api_key.regenerated')).map((e) => e.data.keyId),
    ).toEqual([apiKey.id]);
    expect(
      (await events(account.organization.id, 'api_key.deleted')).map((e) => e.data.keyId),
    ).toEqual([apiKey.id]);
  });

  it('when a plain member tries to delete a colleague’s key, then it is refused and the key keeps working', async () => {
    const account = await buildAccount(stack);
    const colleague = await stack.keys.services.accounts.createUser(
      `colleague-${Date.now()}@example.test`,
    );
    await stack.keys.services.accounts.addMember(account.organization.id, colleague.id, 'member');
    const { token } = await buildAccessToken(stack, colleague.id);
    const { key, apiKey } = await buildApiKey(stack, account);
    const response = await dashboard(token, `mutation ($id: ID!) { deleteApiKey(id: $id) }`, {
      id: apiKey.id,
    });
    expect(response.body.errors?.[0]?.extensions?.code).toBe('forbidden');
    expect((await callApi(stack, 'GET', '/usage', { key })).status).toBe(200);
  });

  it('KEY-1: when a plain member asks for a key with manage_websites, manage_team or admin, then it is refused and nothing is created; an admin may', async () => {
    const account = await buildAccount(stack);
    const accounts = stack.keys.services.accounts;
    const member = await accounts.createUser(`member-${Date.now()}@example.test`);
    const admin = await accounts.createUser(`admin-${Date.now()}@example.test`);
    await accounts.addMember(account.organization.id, member.id, 'member');
    await accounts.addMember(account.organization.id, admin.id, 'admin');
    const create = async (userId: string, permissions: string[]) =>
      dashboard(
        (await buildAccessToken(stack, userId)).token,
        `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { permissions } } }`,
        {
          input: {
            organizationId: account.organization.id,
            name: 'k',
            permissions,
            expiration: 'NEVER',
          },
        },
      );
    const keysOfOrganization = async () =>
      (await stack.keys.services.credentials.apiKeysOfOrganization(account.organization.id)).length;
    const before = await keysOfOrganization();

    for (const permission of ['MANAGE_WEBSITES', 'MANAGE_TEAM', 'ADMIN']) {
      const refused = await create(member.id, ['READ_ANALYTICS', permission]);
      expect(refused.body.data).toBeNull();
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('forbidden');
    }
    expect(await keysOfOrganization()).toBe(before);

    const allowed = await create(member.id, ['READ_ANALYTICS', 'TRACK_EVENTS']);
    expect(allowed.body.data!.createApiKey.apiKey.permissions).toEqual([
      'READ_ANALYTICS',
      'TRACK_EVENTS',
    ]);
    const granted = await create(admin.id, ['READ_ANALYTICS', 'ADMIN']);
    expect(granted.body.data!.createApiKey.apiKey.permissions).toEqual(['READ_ANALYTICS', 'ADMIN']);
  });

  it.each([
    ['a day that does not exist', { expiration: 'CUSTOM', expiresAt: '2099-02-31' }, 'expiresAt'],
    ['a year past 9999', { expiration: 'CUSTOM', expiresAt: '+099999-01-01' }, 'expiresAt'],
    ['a time without offset', { expiration: 'CUSTOM', expiresAt: '2099-01-01T10:00' }, 'expiresAt'],
    ['expiresAt beside NEVER', { expiration: 'NEVER', expiresAt: 'not a date' }, 'CUSTOM'],
    ['expiresAt beside ONE_YEAR', { expiration: 'ONE_YEAR', expiresAt: '2099-01-01' }, 'CUSTOM'],
  ])(
    'KEY-1: when a key is asked for with %s, then 400 invalid_parameters and nothing is created',
    async (_case, expiry, mentions) => {
      const account = await buildAccount(stack);
      const { token } = await buildAccessToken(stack, account.user.id);
      const response = await dashboard(
        token,
        `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { id } } }`,
        { input: { organizationId: account.organization.id, name: 'k', ...expiry } },
      );
      expect(response.body.errors?.[0]?.extensions).toMatchObject({
        code: 'invalid_parameters',
        httpStatus: 400,
      });
      expect(response.body.errors?.[0]?.message).toContain(mentions);
      expect(
        await stack.keys.services.credentials.apiKeysOfOrganization(account.organization.id),
      ).toEqual([]);
    },
  );

  it('KEY-1: when a key lists the same website many times, then it is stored once', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const site = account.websites[0]!.id;
    const response = await dashboard(
      token,
      `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { websites { id } } } }`,
      {
        input: {
          organizationId: account.organization.id,
          name: 'k',
          expiration: 'CUSTOM',
          expiresAt: '2099-03-01',
          websiteIds: Array.from({ length: 200 }, () => site),
        },
      },
    );
    expect(response.body.data!.createApiKey.apiKey.websites).toEqual([{ id: site }]);
  });

  it('when someone outside the organization asks for a key, then it does not exist for them', async () => {
    const account = await buildAccount(stack);
    const stranger = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, stranger.user.id);
    const { apiKey } = await buildApiKey(stack, account);
    const response = await dashboard(token, `query ($id: ID!) { apiKey(id: $id) { name } }`, {
      id: apiKey.id,
    });
    expect(response.body.errors?.[0]?.extensions?.code).toBe('not_found');
  });

  it('PLAT-1: when calls are made, then the log per key has timestamp, endpoint, status, IP and request id, filters by endpoint and date, and pages', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const { key, apiKey } = await buildApiKey(stack, account);
    const before = new Date().toISOString();
    const responses = [
      await callApi(stack, 'GET', '/websites', { key }),
      await callApi(stack, 'GET', `/websites/${account.websites[0]!.id}`, { key }),
      await callApi(stack, 'GET', '/websites/000000000000000000000000', { key }),
      // X-Forwarded-For is not believed without a configured trusted proxy.
      await http(`${stack.facade.url}/api/external/v1/usage`, {
        headers: { 'x-api-key': key, 'x-forwarded-for': '203.0.113.9' },
      }),
    ];
    await stack.facade.deps.callLog.flush();
    await stack.keys.services.callLogConsumer.drain();

    const query = `query ($id: ID!, $endpoint: String, $from: String, $first: Int, $after: String) {
      apiKey(id: $id) { lastUsedAt calls(endpoint: $endpoint, from: $from, first: $first, after: $after) { nodes { at method endpoint path status ip durationMs requestId } hasNextPage endCursor } } }`;
    const all = await dashboard(token, query, { id: apiKey.id, first: 10 });
    const calls = all.body.data!.apiKey.calls;
    expect(calls.nodes.map((c: { path: string; status: number }) => [c.path, c.status])).toEqual([
      ['/api/external/v1/usage', 200],
      ['/api/external/v1/websites/000000000000000000000000', 404],
      [`/api/external/v1/websites/${account.websites[0]!.id}`, 200],
      ['/api/external/v1/websites', 200],
    ]);
    // Each logged call carries the X-Request-Id its response had (newest first).
    expect(calls.nodes.map((c: { requestId: string }) => c.requestId)).toEqual(
      responses.map((r) => r.headers.get('x-request-id')).reverse(),
    );
    for (const call of calls.nodes) {
      expect(call.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
      expect(call.method).toBe('GET');
      expect(new Date(call.at).getTime()).toBeGreaterThanOrEqual(new Date(before).getTime());
    }
    expect(all.body.data!.apiKey.lastUsedAt).toBe(calls.nodes[0].at);

    const filtered = await dashboard(token, query, {
      id: apiKey.id,
      endpoint: '/api/external/v1/websites/:websiteId',
      first: 10,
    });
    expect(filtered.body.data!.apiKey.calls.nodes.map((c: { status: number }) => c.status)).toEqual(
      [404, 200],
    );

    const future = await dashboard(token, query, {
      id: apiKey.id,
      from: new Date(Date.now() + 60_000).toISOString(),
      first: 10,
    });
    expect(future.body.data!.apiKey.calls.nodes).toEqual([]);

    const page1 = await dashboard(token, query, { id: apiKey.id, first: 3 });
    expect(page1.body.data!.apiKey.calls.hasNextPage).toBe(true);
    const page2 = await dashboard(token, query, {
      id: apiKey.id,
      first: 3,
      after: page1.body.data!.apiKey.calls.endCursor,
    });
    expect(page2.body.data!.apiKey.calls.nodes.map((c: { path: string }) => c.path)).toEqual([
      '/api/external/v1/websites',
    ]);
    expect(page2.body.data!.apiKey.calls.hasNextPage).toBe(false);
  });

  it('PLAT-1: when the client goes away after its call was counted but before the answer, then the call is logged with status 499', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const { key, apiKey } = await buildApiKey(stack, account);
    const facade = new URL(stack.facade.url);
    const path = `/api/external/v1/query/${account.websites[0]!.id}`;
    // A body that never completes: the facade checks the key and counts the call, then waits.
    const socket = connect(Number(facade.port), facade.hostname);
    await once(socket, 'connect');
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${facade.host}\r\nX-API-Key: ${key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"metrics":',
    );
    let usageCalls = 0;
    for (;;) {
      const usage = await callApi(stack, 'GET', '/usage', { key });
      usageCalls += 1;
      if (Number(usage.headers.get('x-usage-monthly')) > usageCalls) break;
    }
    socket.destroy();

    const nodes = await loggedCalls(token, apiKey.id, '/api/external/v1/query/:websiteId');
    expect(nodes).toEqual([{ path, status: 499, ip: '127.0.0.1' }]);
  });

  it('PLAT-1: when the client goes away while its key is still being checked, then the call, counted once the check ends, is logged under the key with status 499', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const { key, apiKey } = await buildApiKey(stack, account);
    // A facade of its own, whose keys subgraph's answers are held back: it has not seen this key
    // yet, so the call waits on the key check.
    const proxy = await startTcpProxy(Number(new URL(stack.keys.graphqlUrl).port));
    const facade = await startFacade(
      loadFacadeConfig({
        ...stack.env,
        ...stack.subgraphEnv,
        KEYS_URL: `http://127.0.0.1:${proxy.port}/graphql`,
      }),
      createLogger('rest-facade', 'silent'),
    );
    const recordAfter = jest.spyOn(facade.deps.callLog, 'recordAfter');
    let stopped = false;
    try {
      const { arrived } = proxy.hold();
      const target = new URL(facade.url);
      const socket = connect(Number(target.port), target.hostname);
      await once(socket, 'connect');
      socket.write(
        `GET /api/external/v1/usage HTTP/1.1\r\nHost: ${target.host}\r\nX-API-Key: ${key}\r\n\r\n`,
      );
      await arrived; // the key check is on its way to the keys subgraph
      socket.destroy();
      // The facade sees the close: the call's record waits for the key check to end.
      await waitFor(() => recordAfter.mock.calls.length > 0);
      proxy.release();
      await facade.stop(); // waits for the call in flight, flushes the call log
      stopped = true;

      const nodes = await loggedCalls(token, apiKey.id, '/api/external/v1/usage');
      expect(nodes).toEqual([{ path: '/api/external/v1/usage', status: 499, ip: '127.0.0.1' }]);
      const usage = await callApi(stack, 'GET', '/usage', { key });
      expect(usage.headers.get('x-usage-total')).toBe('2');
    } finally {
      proxy.release();
      if (!stopped) await facade.stop();
      await proxy.cut();
    }
  });

  it('PLAT-1: when a key is refused though identified (expired, or its team on the Free plan), then the call is logged under the key', async () => {
    const free = await buildAccount(stack, { plan: 'free' });
    const { token: freeToken } = await buildAccessToken(stack, free.user.id);
    const { key: freeKey, apiKey: freeApiKey } = await buildApiKey(stack, free);
    expect((await callApi(stack, 'GET', '/websites', { key: freeKey })).status).toBe(403);
    expect(await loggedCalls(freeToken, freeApiKey.id, '/api/external/v1/websites')).toEqual([
      { path: '/api/external/v1/websites', status: 403, ip: '127.0.0.1' },
    ]);

    const paid = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, paid.user.id);
    const { key, apiKey } = await buildApiKey(stack, paid, {
      expiration: new Date(Date.now() + 1_000),
    });
    expect((await callApi(stack, 'GET', '/websites', { key })).status).toBe(200);
    await waitUntil(apiKey.expiresAt!);
    const expired = await callApi(stack, 'GET', '/websites', { key });
    expect(expired.body).toEqual({ error: { code: 'key_expired', message: expect.any(String) } });
    const nodes = await loggedCalls(token, apiKey.id, '/api/external/v1/websites', 2);
    expect(nodes.map((n) => n.status).sort()).toEqual([200, 401]);
    // An expired key left behind would be announced by the expiry scans of the KEY-7 test.
    await stack.keys.services.credentials.deleteApiKey(apiKey.id);
  });

  it('PLAT-1: when batches from several facade instances overlap in time, or one is appended twice under its batch id, then pages are in exact newest-first order with nothing lost or repeated', async () => {
    const { callLog } = stack.keys.services;
    const keyId = `overlap-${Date.now()}`;
    const base = Date.UTC(2026, 10, 1, 12);
    const endpoints = ['/api/external/v1/websites', '/api/external/v1/usage'];
    // Three "instances" whose batches interleave: call n of instance i is at base + 3n + i s.
    const entries = [0, 1, 2].flatMap((instance) =>
      [0, 1, 2, 3].map((batch) => ({
        id: `${base}-${instance}${batch}`,
        fields: {
          calls: JSON.stringify(
            Array.from({ length: 5 }, (_, n) => ({
              at: new Date(base + (3 * (batch * 5 + n) + instance) * 1000).toISOString(),
              keyId,
              method: 'GET',
              endpoint: endpoints[n % 2],
              path: endpoints[n % 2],
              status: 200,
              ip: '127.0.0.1',
              durationMs: n,
            })),
          ),
        },
      })),
    );
    await callLog.store(entries.slice(0, 6));
    await callLog.store(entries); // redelivery of the first half stores nothing twice
    // A batch the facade appended again under its id (the first append timed out but landed),
    // delivered together and apart.
    const againKey = `${keyId}-again`;
    const again = entries[0]!.fields.calls.replaceAll(
      `"keyId":"${keyId}"`,
      `"keyId":"${againKey}"`,
    );
    const appended = (n: number) => ({
      id: `${base}-999${n}`,
      fields: { batch: `batch-${keyId}`, calls: again },
    });
    await callLog.store([appended(0), appended(1)]);
    await callLog.store([appended(2)]);
    expect((await callLog.list(againKey, { first: 500 })).nodes).toHaveLength(5);
    const everything = await callLog.list(keyId, { first: 500 });
    expect(everything.nodes).toHaveLength(60);
    const times = everything.nodes.map((c) => c.at.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));

    for (const filter of [
      {},
      { endpoint: '/api/external/v1/usage' },
      { from: new Date(base + 20_000), to: new Date(base + 45_000) },
    ]) {
      const all = (await callLog.list(keyId, { ...filter, first: 500 })).nodes;
      const paged: typeof all = [];
      let after: string | null = null;
      for (;;) {
        const page = await callLog.list(keyId, { ...filter, first: 7, after });
        paged.push(...page.nodes);
        if (!page.hasNextPage) break;
        after = page.endCursor;
      }
      expect(paged.map((c) => c.id)).toEqual(all.map((c) => c.id));
      expect(new Set(paged.map((c) => c.id)).size).toBe(paged.length);
    }
    const usageOnly = (
      await callLog.list(keyId, { endpoint: '/api/external/v1/usage', first: 500 })
    ).nodes;
    expect(usageOnly).toHaveLength(24);
    const window = (
      await callLog.list(keyId, {
        from: new Date(base + 20_000),
        to: new Date(base + 45_000),
        first: 500,
      })
    ).nodes;
    expect(window).toHaveLength(25);
  });

  it('PLAT-1: when buckets stored in the earlier forms (rows with ids, sub-documents) sit beside current ones, then all are listed, newest first, with every field', async () => {
    const { callLog } = stack.keys.services;
    const keyId = `packed-${Date.now()}`;
    const base = Date.UTC(2026, 10, 2, 12);
    const call = (at: number, path: string) => ({
      at: new Date(at).toISOString(),
      keyId,
      method: 'GET',
      endpoint: path,
      path,
      status: 200,
      ip: '203.0.113.7',
      durationMs: 2.5,
      requestId: `req-${at}`,
    });
    await callLog.store([
      {
        id: `${base}-0`,
        fields: { calls: JSON.stringify([call(base + 2_000, '/api/external/v1/usage')]) },
      },
    ]);
    const models = await keysModels();
    const stored = await models.ApiCallBucket.findById(`${base}-0:${keyId}`).lean();
    expect(typeof stored?.packed).toBe('string');
    expect(stored?.calls).toBeUndefined();
    // As the call log stored buckets before packing: the calls as sub-documents, no requestId.
    // Raw documents, as an older version wrote them (the model's `_id` type is a driver default).
    const buckets = models.ApiCallBucket.db.collection<{ _id: string; [field: string]: unknown }>(
      models.ApiCallBucket.collection.collectionName,
    );
    await buckets.insertOne({
      _id: `${base - 1}-0:${keyId}`,
      keyId,
      firstAt: new Date(base + 1_000),
      lastAt: new Date(base + 1_000),
      calls: [
        {
          ...call(base + 1_000, '/api/external/v1/websites'),
          id: `${base - 1}-0-0`,
          at: new Date(base + 1_000),
        },
      ].map(({ requestId: _unset, keyId: _key, ...rest }) => rest),
    });

    // As the call log stored buckets before calls travelled packed per key: rows with their ids.
    const asRow = {
      id: `${base - 2}-0-0`,
      at: new Date(base + 1_500),
      method: 'GET',
      endpoint: '/api/external/v1/websites/:websiteId',
      path: '/api/external/v1/websites/w1',
      status: 404,
      ip: '203.0.113.8',
      durationMs: 1.5,
      requestId: 'req-older',
    };
    await buckets.insertOne({
      _id: `${base - 2}-0:${keyId}`,
      keyId,
      firstAt: asRow.at,
      lastAt: asRow.at,
      packed: JSON.stringify([{ ...asRow, at: asRow.at.getTime() }].map(Object.values)),
    });

    const { nodes } = await callLog.list(keyId, { first: 10 });
    expect(nodes).toEqual([
      {
        id: `${base}-0-0`,
        at: new Date(base + 2_000),
        method: 'GET',
        endpoint: '/api/external/v1/usage',
        path: '/api/external/v1/usage',
        status: 200,
        ip: '203.0.113.7',
        durationMs: 2.5,
        requestId: `req-${base + 2_000}`,
      },
      asRow,
      {
        id: `${base - 1}-0-0`,
        at: new Date(base + 1_000),
        method: 'GET',
        endpoint: '/api/external/v1/websites',
        path: '/api/external/v1/websites',
        status: 200,
        ip: '203.0.113.7',
        durationMs: 2.5,
        requestId: null,
      },
    ]);
  });

  it('KEY-9: when a key is deleted while its calls are being recorded, then it stays deleted', async () => {
    // Recording a call moves the key's last-used time. On engines whose updates are
    // read-modify-write (FerretDB 1.x), doing that on the key's own document could write back
    // the pre-deletion document and bring a deleted key back to life.
    const account = await buildAccount(stack);
    const keys = await Promise.all(Array.from({ length: 12 }, () => buildApiKey(stack, account)));
    const { callLog, credentials } = stack.keys.services;
    await Promise.all(
      keys.map(async ({ apiKey }, index) => {
        const call = {
          at: new Date().toISOString(),
          keyId: apiKey.id,
          method: 'GET',
          endpoint: '/api/external/v1/websites',
          path: '/api/external/v1/websites',
          status: 200,
          ip: '127.0.0.1',
          durationMs: 1,
        };
        const recordings = Array.from({ length: 4 }, (_, n) =>
          callLog.store([
            { id: `${Date.now()}-${index * 10 + n}`, fields: { calls: JSON.stringify([call]) } },
          ]),
        );
        await Promise.all([...recordings, credentials.deleteApiKey(apiKey.id)]);
      }),
    );
    for (const { key } of keys) {
      expect(await credentials.resolve(sha256Hex(key))).toBeNull();
    }
  });

  it('KEY-8 KEY-9: when a key is regenerated and deleted at the same moment, then the delete always succeeds and wins: the key is gone and no regenerated value works', async () => {
    // FerretDB 1.x applies a conditional update as a read-modify-write of the whole document:
    // without one change of a key at a time, the regeneration wrote the deleted key back.
    const account = await buildAccount(stack);
    const { credentials } = stack.keys.services;
    for (let round = 0; round < 25; round += 1) {
      const { apiKey } = await buildApiKey(stack, account);
      const [regenerated, again, deleted] = await Promise.allSettled([
        credentials.regenerateApiKey(apiKey.id),
        credentials.regenerateApiKey(apiKey.id),
        credentials.deleteApiKey(apiKey.id),
      ]);
      expect(deleted.status).toBe('fulfilled');
      expect(await credentials.apiKeysByIds([apiKey.id])).toEqual([]);
      for (const outcome of [regenerated, again]) {
        if (outcome.status === 'fulfilled')
          expect(await credentials.resolve(sha256Hex(outcome.value.key))).toBeNull();
        else expect(outcome.reason.extensions.code).toBe('not_found');
      }
    }
  });

  it('KEY-8: when a key is regenerated twice at the same moment, then they take turns: only the later value works, and each answer shows the prefix of its own value', async () => {
    const account = await buildAccount(stack);
    const { credentials } = stack.keys.services;
    for (let round = 0; round < 25; round += 1) {
      const { apiKey } = await buildApiKey(stack, account);
      const [first, second] = await Promise.all([
        credentials.regenerateApiKey(apiKey.id),
        credentials.regenerateApiKey(apiKey.id),
      ]);
      const valid = await Promise.all(
        [first, second].map(
          async ({ key }) => (await credentials.resolve(sha256Hex(key))) !== null,
        ),
      );
      // One after the other: exactly the later value works, and the stored prefix is its prefix.
      expect(valid.filter(Boolean)).toHaveLength(1);
      const [stored] = await credentials.apiKeysByIds([apiKey.id]);
      expect(stored!.prefix).toBe((valid[0] ? first : second).apiKey.prefix);
      for (const { key, apiKey: shown } of [first, second])
        expect(key.startsWith(shown.prefix)).toBe(true);
    }
  });

  it('KEY-7: when expiry approaches, then warnings go out 30, 7 and 1 days before and once at expiry, exactly once each even with two instances scanning', async () => {
    const account = await buildAccount(stack);
    const { apiKey } = await buildApiKey(stack, account, {
      expiration: new Date(Date.now() + 45 * DAY),
    });
    const models = await keysModels();
    const prefix = stack.env.REDIS_KEY_PREFIX!;
    const instances = [
      new KeyExpiryJob(models, redis, prefix),
      new KeyExpiryJob(models, redis, prefix),
    ];
    const expiresAt = apiKey.expiresAt!.getTime();
    const scanBoth = async (at: number) =>
      (await Promise.all(instances.map((job) => job.scan(new Date(at))))).reduce(
        (a, b) => a + b,
        0,
      );

    expect(await scanBoth(expiresAt - 40 * DAY)).toBe(0);
    expect(await scanBoth(expiresAt - 30 * DAY + 1_000)).toBe(1);
    expect(await scanBoth(expiresAt - 29 * DAY)).toBe(0);
    expect(await scanBoth(expiresAt - 7 * DAY + 1_000)).toBe(1);
    expect(await scanBoth(expiresAt - DAY + 1_000)).toBe(1);
    expect(await scanBoth(expiresAt - DAY + 2_000)).toBe(0);
    expect(await scanBoth(expiresAt + 1_000)).toBe(1);
    expect(await scanBoth(expiresAt + 2_000)).toBe(0);

    const expiring = await events(account.organization.id, 'api_key.expiring');
    expect(expiring.map((e) => e.data.daysBefore)).toEqual([30, 7, 1]);
    expect(new Set(expiring.map((e) => e.id)).size).toBe(3);
    expect(await events(account.organization.id, 'api_key.expired')).toHaveLength(1);
  });

  it('KEY-7: when an instance died after claiming a warning and before publishing it, then a later scan publishes it once', async () => {
    const account = await buildAccount(stack);
    const { apiKey } = await buildApiKey(stack, account, {
      expiration: new Date(Date.now() + 20 * DAY),
    });
    const models = await keysModels();
    const job = new KeyExpiryJob(models, redis, stack.env.REDIS_KEY_PREFIX!);
    const claimedAt = Date.now();
    // What the dead instance left behind: its claim, and no event.
    await leftClaimed(apiKey.id, claimedAt);

    expect(await job.scan(new Date(claimedAt + 1_000))).toBe(0); // its claimer may still be at it
    expect(await events(account.organization.id, 'api_key.expiring')).toEqual([]);
    expect(await job.scan(new Date(claimedAt + STALE_CLAIM_MS + 1_000))).toBe(1);
    expect(await job.scan(new Date(claimedAt + STALE_CLAIM_MS + 2_000))).toBe(0);
    const expiring = await events(account.organization.id, 'api_key.expiring');
    expect(expiring.map((e) => [e.id, e.data.daysBefore])).toEqual([
      [`evt_api_key_expiring_${apiKey.id}_30`, 30],
    ]);
  });

  it('KEY-7: when two instances take over the same stale claim at once, then the warning is still published once', async () => {
    const models = await keysModels();
    const prefix = stack.env.REDIS_KEY_PREFIX!;
    for (let round = 0; round < 3; round += 1) {
      const account = await buildAccount(stack);
      const { apiKey } = await buildApiKey(stack, account, {
        expiration: new Date(Date.now() + 20 * DAY),
      });
      const claimedAt = Date.now();
      await leftClaimed(apiKey.id, claimedAt);
      const later = new Date(claimedAt + STALE_CLAIM_MS + 1_000);
      await Promise.all([
        new KeyExpiryJob(models, redis, prefix).scan(later),
        new KeyExpiryJob(models, redis, prefix).scan(later),
      ]);
      expect(await events(account.organization.id, 'api_key.expiring')).toHaveLength(1);
    }
  });
});
