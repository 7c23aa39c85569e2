import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import type { RedisClient } from '../../common/platform/redis';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { captureLogs } from '../support/log-capture';
import { keysMatching, openTestRedis } from '../support/redis';
import { startStack, testMongoUri, type Stack } from '../support/stack';

/** Documents per collection of one stack's three databases, as `<database>.<collection>`. */
type DocumentCounts = Record<string, number>;

/**
 * Callers that may not read what they ask for — an unknown key, another organization's website, an
 * id that cannot be one — are answered without leaving anything behind: no Redis key, no
 * document, no error in the log (issue 28; docs/api.md, "Order of answers").
 */
describe('what callers who may not read leave behind', () => {
  const logs = captureLogs();
  let stack: Stack;
  let redis: RedisClient;

  beforeAll(async () => {
    stack = await startStack('unauth-state', { LOG_LEVEL: 'warn' }, logs.sink);
    redis = await openTestRedis(stack.env.REDIS_URL!);
    const { apollo } = stack.facade.engine;
    const executeOperation = apollo.executeOperation.bind(apollo);
    apollo.executeOperation = ((...args: Parameters<typeof executeOperation>) => {
      executed += 1;
      return executeOperation(...args);
    }) as typeof apollo.executeOperation;
  });
  afterAll(async () => {
    redis.disconnect();
    await stack.stop();
  });

  /** Calls `paths` with `headers`, `concurrency` at a time; the statuses answered. */
  async function flood(paths: string[], headers: Record<string, string>, concurrency = 16) {
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < paths.length) {
          const path = paths[next++]!;
          const response = await fetch(`${stack.facade.url}${path}`, { headers });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
      }),
    );
    return statuses;
  }

  /** What the stack holds once everything logged so far is stored: its Redis keys, its documents. */
  async function held() {
    await stack.facade.deps.callLog.flush();
    await stack.keys.services.callLogConsumer.drain();
    const keys = new Set(await keysMatching(redis, `${stack.env.REDIS_KEY_PREFIX}*`));
    const documents: DocumentCounts = {};
    for (const name of ['keys', 'analytics', 'webhooks']) {
      const connection = await mongoose
        .createConnection(testMongoUri(`${stack.id}_${name}`))
        .asPromise();
      try {
        for (const { name: collection } of await connection.db!.listCollections().toArray())
          documents[`${name}.${collection}`] = await connection
            .db!.collection(collection)
            .countDocuments();
      } finally {
        await connection.close();
      }
    }
    return { keys, documents };
  }

  /** The keys in `after` only, by shape (ids and long runs shortened), with how many have it. */
  const added = (before: Set<string>, after: Set<string>) => {
    const shapes = new Map<string, number>();
    for (const key of after) {
      if (before.has(key)) continue;
      const shape = key
        .slice(stack.env.REDIS_KEY_PREFIX!.length)
        .replace(/[0-9a-f]{12,}x*/g, '<id>');
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    }
    return [...shapes].map(([shape, count]) => `${shape} ×${count}`).sort();
  };
  const moreDocuments = (before: DocumentCounts, after: DocumentCounts) =>
    Object.entries(after)
      .filter(([collection, count]) => count > (before[collection] ?? 0))
      .map(([collection, count]) => `${collection} +${count - (before[collection] ?? 0)}`);
  const errorsLogged = () =>
    logs.records().filter((line) => line.level === 'error' || line.level === 'fatal');

  /** What the stack holds now and did not hold `before`, and the errors logged so far. */
  async function leftSince(before: Awaited<ReturnType<typeof held>>) {
    const after = await held();
    return {
      keys: added(before.keys, after.keys),
      documents: moreDocuments(before.documents, after.documents),
      errors: errorsLogged(),
    };
  }

  let executed = 0;
  /** How many operations the facade's engine ran since the last time this was asked. */
  function operations() {
    const count = executed;
    executed = 0;
    return count;
  }

  const unknownKey = () => `svc_${randomBytes(32).toString('base64url')}`;
  /** An id as long as a request line lets it be (the headers' 16 KiB hold the key as well). */
  const longId = () => `${randomBytes(6).toString('hex')}${'x'.repeat(15_000)}`;
  const madeUpId = () => randomBytes(12).toString('hex');

  it('when 2,000 calls with unknown well-formed keys ask for long made-up ids and another organization’s website, then each answers 401 and they leave no Redis key, no document and no error', async () => {
    const theirs = await buildAccount(stack);
    await buildApiKey(stack, theirs);
    const before = await held();
    const paths = Array.from({ length: 2_000 }, (_, i) =>
      i % 4 === 0
        ? `/api/external/v1/analytics/${theirs.websites[0]!.id}`
        : i % 4 === 1
          ? `/api/external/v1/websites/${longId()}`
          : `/api/external/v1/analytics/${longId()}/pages`,
    );
    const statuses = await flood(paths, { 'x-api-key': unknownKey() });
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(await leftSince(before)).toEqual({ keys: [], documents: [], errors: [] });
  });

  it('when a key asks for another organization’s website, made-up ids and ids that cannot be ids, then it gets 403 and 404 and they leave no Redis key and no document but its call log', async () => {
    const mine = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMinute: 100_000, requestsPerMonth: 10_000_000 },
    });
    const theirs = await buildAccount(stack);
    const { key } = await buildApiKey(stack, mine);
    // Its counters and call log exist from its first call on.
    await flood(['/api/external/v1/usage'], { 'x-api-key': key });
    const before = await held();
    operations();
    const paths = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 0
        ? `/api/external/v1/analytics/${theirs.websites[0]!.id}/visitors`
        : i % 3 === 1
          ? `/api/external/v1/analytics/${madeUpId()}`
          : `/api/external/v1/errors/${longId()}/groups`,
    );
    const statuses = await flood(paths, { 'x-api-key': key });
    expect(statuses.filter((status) => status === 403)).toHaveLength(100);
    expect(statuses.filter((status) => status === 404)).toHaveLength(200);
    expect(operations()).toBe(200);
    expect(await leftSince(before)).toEqual({
      keys: [],
      documents: [expect.stringMatching(/^keys\.apicallbuckets \+\d+$/)],
      errors: [],
    });
  });

  it('when webhook management is asked about ids that cannot be ids, then it answers 401 without a valid token and 404 with one, and they leave no Redis key and no document', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    // The token's use is recorded from its first call on.
    const list = await fetch(`${stack.facade.url}/v1/cli/mutate/webhooks`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.status).toBe(200);
    await list.arrayBuffer();
    const paths = Array.from({ length: 100 }, () => `/v1/cli/mutate/webhooks/${longId()}/rotate`);
    const before = await held();
    const post = (path: string, authorization: string) =>
      fetch(`${stack.facade.url}${path}`, { method: 'POST', headers: { authorization } }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
      );
    operations();
    const unknown = `Bearer wat_${randomBytes(32).toString('base64url')}`;
    expect(new Set(await Promise.all(paths.map((path) => post(path, unknown))))).toEqual(
      new Set([401]),
    );
    expect(new Set(await Promise.all(paths.map((path) => post(path, `Bearer ${token}`))))).toEqual(
      new Set([404]),
    );
    expect(operations()).toBe(0);
    expect(await leftSince(before)).toEqual({ keys: [], documents: [], errors: [] });
  });
});
