import { operationNameOf } from '../../rest-facade/src/gateway-client';
import { randomBytes } from 'node:crypto';
import { createLogger } from '../../common/platform/logger';
import { platformEventStream } from '../../common/contracts/platform-events';
import { startFacade, type RunningFacade } from '../../rest-facade/src/app';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import { monthlyResetAt, UsageLimiter } from '../../rest-facade/src/limits/usage-limiter';
import { restoreUsageCounters, usageKeys } from '../../common/contracts/usage-keys';
import { perMinuteLimit } from '../../common/platform/per-minute-limit';
import { callApi } from '../support/api-client';
import { buildAccount, buildApiKey } from '../support/factories';
import { http } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { waitFor, waitUntil } from '../support/wait';
import { Cluster } from 'ioredis';
import type { RedisClient } from '../../common/platform/redis';
import { deleteKeysMatching, openTestRedis, testKeyPrefix } from '../support/redis';

type Usage = { data: Record<string, unknown> };

describe('External API limits, quotas and headers', () => {
  let stack: Stack;
  let redis: RedisClient;
  beforeAll(async () => {
    stack = await startStack('api-limits', { WEBHOOK_WORKERS_ENABLED: 'false' });
    redis = await openTestRedis(stack.env.REDIS_URL!);
  });
  afterAll(async () => {
    redis.disconnect();
    await stack.stop();
  });

  it('LIM-6: when a call succeeds, then every usage header is present and X-Usage-Reset is ISO 8601', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    const response = await callApi(stack, 'GET', '/websites', { key });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('30');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('29');
    expect(response.headers.get('x-usage-monthly')).toBe('1');
    expect(response.headers.get('x-usage-limit')).toBe('10000');
    expect(response.headers.get('x-usage-reset')).toBe(monthlyResetAt(new Date()).toISOString());
    expect(response.headers.get('x-usage-total')).toBe('1');
  });

  it('LIM-6: when a call fails after authentication (400, 403, 404), then the usage headers are there too', async () => {
    const account = await buildAccount(stack, { plan: 'scale' });
    const { key } = await buildApiKey(stack, account, { permissions: ['track_events'] });
    const forbidden = await callApi(stack, 'GET', '/websites', { key });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('x-ratelimit-limit')).toBe('60');
    expect(forbidden.headers.get('x-usage-monthly')).toBe('1');
    const { key: reader } = await buildApiKey(stack, account);
    const missing = await callApi(stack, 'GET', '/websites/000000000000000000000000', {
      key: reader,
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-usage-monthly')).toBe('2');
    expect(missing.headers.get('x-usage-total')).toBe('1');
    const badParameter = await callApi(
      stack,
      'GET',
      `/analytics/${account.websites[0]!.id}/visitors?limit=abc`,
      { key: reader },
    );
    expect(badParameter.status).toBe(400);
    expect(badParameter.headers.get('x-ratelimit-limit')).toBe('60');
    expect(badParameter.headers.get('x-ratelimit-remaining')).toBe('57');
    expect(badParameter.headers.get('x-usage-monthly')).toBe('3');
    expect(badParameter.headers.get('x-usage-total')).toBe('2');
    expect(badParameter.headers.get('x-usage-reset')).toBe(
      monthlyResetAt(new Date()).toISOString(),
    );
  });

  it('LIM-7: when GET /usage is called, then it reports monthly count, remaining quota, per-minute limit and tier', async () => {
    const account = await buildAccount(stack, { plan: 'enterprise' });
    const { key } = await buildApiKey(stack, account);
    await callApi(stack, 'GET', '/websites', { key });
    const response = await callApi<Usage>(stack, 'GET', '/usage', { key });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      tier: 'enterprise',
      monthly_requests: 2,
      monthly_limit: 1_000_000,
      remaining_requests: 999_998,
      requests_per_minute: 120,
      reset_at: monthlyResetAt(new Date()).toISOString(),
      total_requests: 2,
    });
  });

  it('LIM-7 DATA-6: when GET /usage gets a query parameter, then 400 invalid_parameters with the usage headers', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    const response = await callApi(stack, 'GET', '/usage?month=2026-10', { key });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'invalid_parameters',
        message: 'Unknown query parameter "month"; this endpoint takes none',
        timestamp: expect.any(String),
        details: { unknown: ['month'], accepted: [] },
      },
    });
    expect(response.headers.get('x-ratelimit-limit')).toBe('30');
    expect(response.headers.get('x-usage-monthly')).toBe('1');
  });

  it('LIM-1: when support sets custom Enterprise limits, then they apply', async () => {
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMinute: 500, requestsPerMonth: 2_000_000 },
    });
    const { key } = await buildApiKey(stack, account);
    const response = await callApi<Usage>(stack, 'GET', '/usage', { key });
    expect(response.body.data).toMatchObject({
      requests_per_minute: 500,
      monthly_limit: 2_000_000,
    });
  });

  it('AUTH-7: when the key owner also belongs to a higher-plan team, then that plan’s limits apply and usage is counted against that team', async () => {
    const pro = await buildAccount(stack, { plan: 'pro' });
    const scale = await buildAccount(stack, { plan: 'scale' });
    await stack.keys.services.accounts.addMember(scale.organization.id, pro.user.id, 'member');
    const { key } = await buildApiKey(stack, pro);
    const { key: scaleKey } = await buildApiKey(stack, scale);
    await callApi(stack, 'GET', '/websites', { key: scaleKey });
    const response = await callApi<Usage>(stack, 'GET', '/usage', { key });
    expect(response.headers.get('x-ratelimit-limit')).toBe('60');
    expect(response.headers.get('x-usage-limit')).toBe('100000');
    expect(response.body.data).toMatchObject({
      tier: 'scale',
      monthly_requests: 2,
      total_requests: 1,
    });
  });

  it('AUTH-7: when the key owner also belongs to an Enterprise team whose custom limits are below Pro’s, then the Pro team’s larger allowance applies and the other team’s quota is not touched', async () => {
    const pro = await buildAccount(stack, { plan: 'pro' });
    const small = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMinute: 5, requestsPerMonth: 12 },
    });
    await stack.keys.services.accounts.addMember(small.organization.id, pro.user.id, 'member');
    const { key } = await buildApiKey(stack, pro);
    const response = await callApi<Usage>(stack, 'GET', '/usage', { key });
    expect(response.headers.get('x-ratelimit-limit')).toBe('30');
    expect(response.headers.get('x-usage-limit')).toBe('10000');
    expect(response.body.data).toMatchObject({ tier: 'pro', monthly_requests: 1 });
    const { key: smallKey } = await buildApiKey(stack, small);
    const theirs = await callApi(stack, 'GET', '/usage', { key: smallKey });
    expect(theirs.headers.get('x-usage-monthly')).toBe('1');
  });

  it('AUTH-5: when the key’s own team is Free, then it is refused even if its owner is in a paid team', async () => {
    const free = await buildAccount(stack, { plan: 'free' });
    const paid = await buildAccount(stack, { plan: 'enterprise' });
    await stack.keys.services.accounts.addMember(paid.organization.id, free.user.id, 'member');
    const { key } = await buildApiKey(stack, free);
    const response = await callApi(stack, 'GET', '/websites', { key });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      error: { code: 'API_PAID_PLAN_REQUIRED', message: expect.any(String) },
    });
  });

  it('LIM-8: when a team creates more keys, then they share one allowance; X-Usage-Total stays per key', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const first = await buildApiKey(stack, account);
    const second = await buildApiKey(stack, account);
    const a = await callApi(stack, 'GET', '/websites', { key: first.key });
    const b = await callApi(stack, 'GET', '/websites', { key: second.key });
    expect([a.headers.get('x-usage-monthly'), b.headers.get('x-usage-monthly')]).toEqual([
      '1',
      '2',
    ]);
    expect([
      a.headers.get('x-ratelimit-remaining'),
      b.headers.get('x-ratelimit-remaining'),
    ]).toEqual(['29', '28']);
    expect([a.headers.get('x-usage-total'), b.headers.get('x-usage-total')]).toEqual(['1', '1']);
  });

  it('AUTH-8: when requests fail authentication, then they are not counted', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    const expired = await buildApiKey(stack, account, { expiration: new Date(Date.now() + 1_000) });
    await callApi(stack, 'GET', '/usage', { key });
    await waitUntil(expired.apiKey.expiresAt!);
    expect((await callApi(stack, 'GET', '/websites', { key: expired.key })).status).toBe(401);
    expect(
      (await callApi(stack, 'GET', '/websites', { key: `svc_${'z'.repeat(43)}` })).status,
    ).toBe(401);
    expect((await callApi(stack, 'GET', '/websites')).status).toBe(401);
    const response = await callApi<Usage>(stack, 'GET', '/usage', { key });
    expect(response.body.data.monthly_requests).toBe(2);
  });

  it('AUTH-8: when a key the facade has cached is regenerated, then the refused call with the old value counts nowhere', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const created = await buildApiKey(stack, account);
    const first = await callApi(stack, 'GET', '/usage', { key: created.key });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('29');
    expect(first.headers.get('x-usage-monthly')).toBe('1');
    // The old value is still in the facade's cache: the per-minute count it starts is undone.
    const regenerated = await stack.keys.services.credentials.regenerateApiKey(created.apiKey.id);
    expect((await callApi(stack, 'GET', '/usage', { key: created.key })).status).toBe(401);
    const next = await callApi(stack, 'GET', '/usage', { key: regenerated.key });
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('28');
    expect(next.headers.get('x-usage-monthly')).toBe('2');
  });

  /** `count` concurrent GET /usage with `key`, alternating between this stack's facade and a second one. */
  async function raceAcrossTwoFacades(key: string, count: number) {
    const second: RunningFacade = await startFacade(
      loadFacadeConfig({ ...stack.env, ...stack.subgraphEnv }),
      createLogger('facade-2', 'silent'),
    );
    try {
      const bases = [stack.facade.url, second.url];
      return await Promise.all(
        Array.from({ length: count }, (_, i) =>
          http<Record<string, unknown>>(`${bases[i % 2]}/api/external/v1/usage`, {
            headers: { 'x-api-key': key },
          }),
        ),
      );
    } finally {
      await second.stop();
    }
  }

  it('LIM-4: when 24 requests race across two facade instances against a monthly quota of 10, then exactly 10 are admitted and the rest get MONTHLY_LIMIT_EXCEEDED', async () => {
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMinute: 1_000, requestsPerMonth: 10 },
    });
    const { key } = await buildApiKey(stack, account);
    const responses = await raceAcrossTwoFacades(key, 24);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(14);
    for (const response of refused) {
      expect(response.body).toMatchObject({ error: { code: 'MONTHLY_LIMIT_EXCEEDED' } });
      expect(response.headers.get('retry-after')).toBeNull();
    }
  });

  it('LIM-2 LIM-3: when 50 requests race across two facade instances against 30/min, then exactly 30 are admitted and the rest get 429 with Retry-After', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    const responses = await raceAcrossTwoFacades(key, 50);
    const admitted = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(admitted).toHaveLength(30);
    expect(limited).toHaveLength(20);
    for (const response of limited) {
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(response.body).toEqual({
        success: false,
        error: {
          code: 'RATE_LIMIT_EXCEEDED',
          message: `Rate limit of 30 requests per minute exceeded; retry in ${retryAfter} seconds`,
          timestamp: expect.any(String),
        },
      });
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      // Read while admitted requests are still counting: never above the 30 admitted.
      expect(Number(response.headers.get('x-usage-monthly'))).toBeLessThanOrEqual(30);
    }
    const usage = await callApi<Usage>(stack, 'GET', '/usage', { key });
    expect(usage.status).toBe(429);
    expect(usage.headers.get('x-usage-monthly')).toBe('30');
    expect(usage.headers.get('x-usage-total')).toBe('51');
  });

  it('LIM-2: when refused calls are in flight as a window ends, then the next window still admits only the limit', async () => {
    const limit = 5;
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMinute: limit, requestsPerMonth: 1_000_000 },
    });
    const { key } = await buildApiKey(stack, account);
    const window = usageKeys(stack.env.REDIS_KEY_PREFIX!).minuteWindow(account.organization.id);
    const usage = () =>
      http(`${stack.facade.url}/api/external/v1/usage`, { headers: { 'x-api-key': key } });
    for (let round = 0; round < 6; round += 1) {
      for (let i = 0; i <= limit; i += 1) await usage(); // the window is used up
      // The window ends in 150 ms (only its lifetime is shortened): 24 callers keep calling
      // across that end, so refusals of the old window are in flight when the new one opens.
      await redis.pexpire(window, 150);
      let admitted = 0;
      let calling = true;
      const callers = Array.from({ length: 24 }, async () => {
        while (calling) if ((await usage()).status === 200) admitted += 1;
      });
      // Until the window has ended and the next one is used up (read in one step: a count of the
      // old window beside the lifetime of the new one would end the round too early).
      await waitFor(async () => {
        const read = await redis.multi().get(window).pttl(window).exec();
        const [count = 0, ttl = 0] = (read ?? []).map(([, value]) => Number(value));
        return ttl > 1_000 && count >= limit;
      });
      calling = false;
      await Promise.all(callers);
      expect(admitted).toBeLessThanOrEqual(limit);
      await redis.del(window);
    }
  });

  it('LIM-3: when an organization is at its per-minute limit, then its refused calls do not run their operation', async () => {
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMinute: 8, requestsPerMonth: 1_000_000 },
    });
    const { key } = await buildApiKey(stack, account);
    // Counts the operations the facade runs; the calls still go through unchanged.
    const gateway = stack.facade.deps.gateway;
    const execute = gateway.execute.bind(gateway);
    let usageOperations = 0;
    gateway.execute = ((operation, variables, caller) => {
      const name = typeof operation === 'string' ? operation : operationNameOf(operation);
      if (name === 'Usage') usageOperations += 1;
      return execute(operation, variables, caller);
    }) as typeof gateway.execute;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1)
        statuses.push((await callApi(stack, 'GET', '/usage', { key })).status);
      // 3 left: a burst of 12 may start at most 3 operations early, beside the 3 it is admitted.
      const burst = await Promise.all(
        Array.from({ length: 12 }, () => callApi(stack, 'GET', '/usage', { key })),
      );
      statuses.push(...burst.map((r) => r.status));
      for (let i = 0; i < 5; i += 1)
        statuses.push((await callApi(stack, 'GET', '/usage', { key })).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(8);
      expect(statuses.filter((s) => s === 429)).toHaveLength(14);
      expect(usageOperations).toBeGreaterThanOrEqual(8);
      expect(usageOperations).toBeLessThanOrEqual(11);
    } finally {
      gateway.execute = execute;
    }
  });

  it('LIM-4: when the monthly quota is used up, then 429 MONTHLY_LIMIT_EXCEEDED without Retry-After and with X-Usage-Reset', async () => {
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMonth: 5 },
    });
    const { key } = await buildApiKey(stack, account);
    for (let i = 1; i <= 5; i += 1)
      expect((await callApi(stack, 'GET', '/websites', { key })).status).toBe(200);
    const response = await callApi(stack, 'GET', '/websites', { key });
    const reset = monthlyResetAt(new Date()).toISOString();
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBeNull();
    expect(response.headers.get('x-usage-reset')).toBe(reset);
    expect(response.headers.get('x-usage-monthly')).toBe('5');
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'MONTHLY_LIMIT_EXCEEDED',
        message: `Monthly quota of 5 requests used up; it resets at ${reset}`,
        timestamp: expect.any(String),
      },
    });
  });

  it('LIM-4: when the monthly quota is used up, then it is the answer whatever the call would have met otherwise (unknown website, missing permission)', async () => {
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMonth: 1 },
    });
    const { key } = await buildApiKey(stack, account);
    const trackOnly = await buildApiKey(stack, account, { permissions: ['track_events'] });
    expect((await callApi(stack, 'GET', '/websites', { key })).status).toBe(200);
    const unknownWebsite = await callApi<{ error: { code: string } }>(
      stack,
      'GET',
      '/websites/000000000000000000000000',
      { key },
    );
    expect(unknownWebsite.status).toBe(429);
    expect(unknownWebsite.body.error.code).toBe('MONTHLY_LIMIT_EXCEEDED');
    const lacksPermission = await callApi<{ error: { code: string } }>(
      stack,
      'GET',
      `/analytics/${account.websites[0]!.id}`,
      { key: trackOnly.key },
    );
    expect(lacksPermission.status).toBe(429);
    expect(lacksPermission.body.error.code).toBe('MONTHLY_LIMIT_EXCEEDED');
    const badParameter = await callApi<{ error: { code: string } }>(
      stack,
      'GET',
      `/analytics/${account.websites[0]!.id}/visitors?limit=abc`,
      { key },
    );
    expect(badParameter.status).toBe(429);
    expect(badParameter.body.error.code).toBe('MONTHLY_LIMIT_EXCEEDED');
  });

  it('LIM-4: when usage reaches 80 % and 100 % of the quota, then one platform event each is published', async () => {
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMonth: 10 },
    });
    const { key } = await buildApiKey(stack, account);
    for (let i = 1; i <= 11; i += 1) await callApi(stack, 'GET', '/websites', { key });
    const entries = await redis.xrange(platformEventStream(stack.env.REDIS_KEY_PREFIX!), '-', '+');
    const events = entries
      .map(
        ([, fields]) =>
          JSON.parse(fields[1]!) as {
            type: string;
            organizationId: string;
            userId: string;
            data: { percent: number; used: number; limit: number };
          },
      )
      .filter(
        (e) => e.type === 'usage.threshold_reached' && e.organizationId === account.organization.id,
      );
    expect(events.map((e) => [e.data.percent, e.data.used, e.data.limit, e.userId])).toEqual([
      [80, 8, 10, account.user.id],
      [100, 10, 10, account.user.id],
    ]);
  });

  it('LIM-4: when the call that reached 80 % gives its count back (it failed on our side), then the next one does not announce 80 % again', async () => {
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMonth: 10 },
    });
    const { key } = await buildApiKey(stack, account);
    for (let i = 1; i <= 8; i += 1) await callApi(stack, 'GET', '/websites', { key });
    // What a 5xx does to the month's count (UsageLimiter.refundMonthly).
    await redis.decr(
      usageKeys(stack.env.REDIS_KEY_PREFIX!).monthly(account.organization.id, new Date()),
    );
    expect((await callApi(stack, 'GET', '/websites', { key })).headers.get('x-usage-monthly')).toBe(
      '8',
    );
    const entries = await redis.xrange(platformEventStream(stack.env.REDIS_KEY_PREFIX!), '-', '+');
    const reached = entries
      .map(([, fields]) => JSON.parse(fields[1]!) as { type: string; organizationId: string })
      .filter(
        (e) => e.type === 'usage.threshold_reached' && e.organizationId === account.organization.id,
      );
    expect(reached).toHaveLength(1);
  });
});

describe('the usage limiter on its own Redis client', () => {
  let redis: RedisClient;
  let prefix: string;
  let limiter: UsageLimiter;
  const window = () => usageKeys(prefix).minuteWindow('org-1');
  /**
   * The calls of a spied script command made on the client itself: a Cluster's auto-pipelining
   * calls the same function again on its pipeline (ioredis copies script commands to pipelines).
   */
  const callsOnClient = (spy: jest.SpyInstance) =>
    spy.mock.contexts.filter((context) => context === redis).length;
  /** The admission's command: on a Redis Cluster the organization's part has one of its own. */
  const admitCommand = () =>
    redis instanceof Cluster ? 'waAdmitOrganizationCalls' : 'waAdmitCalls';
  const subject = (requestsPerMinute: number, requestsPerMonth = 1_000) => ({
    keyId: 'key-1',
    billingOrganizationId: 'org-1',
    requestsPerMinute,
    requestsPerMonth,
  });
  const counters = async () => {
    const keys = usageKeys(prefix);
    const today = new Date().toISOString().slice(0, 10);
    return {
      minute: await redis.get(window()),
      monthly: await redis.get(keys.monthly('org-1', new Date())),
      keyTotal: await redis.get(keys.keyTotal('key-1')),
      keyToday: await redis.hget(keys.keyDaily('key-1'), today),
    };
  };
  /** What the keys subgraph does for a key and organization its ledger has no calls of. */
  const emptyLedger = {
    restore: (s: { keyId: string; billingOrganizationId: string }, at: Date) =>
      restoreUsageCounters(redis, prefix, {
        organizationId: s.billingOrganizationId,
        at,
        monthlyRequests: 0,
        keyId: s.keyId,
        keyTotal: 0,
        keyDays: {},
      }),
  };
  beforeEach(async () => {
    redis = await openTestRedis();
    prefix = testKeyPrefix(`minute_${randomBytes(4).toString('hex')}`);
    limiter = new UsageLimiter(redis, prefix, createLogger('limits', 'silent'), emptyLedger);
    // The counters exist, as after the first call of the month (each test counts its own commands).
    await emptyLedger.restore(subject(5), new Date());
  });
  afterEach(async () => {
    await deleteKeysMatching(redis, `${prefix}*`);
    redis.disconnect();
  });

  it('LIM-2: when a call gives its point back after its window ended and a new one began, then the new window keeps its count', async () => {
    await limiter.admit(subject(5));
    await redis.pexpire(window(), 100); // the window ends in 100 ms
    // A call takes its point now and learns only later that its key was revoked meanwhile, so it
    // gives the point back: by then its window has ended and the next one has begun.
    let keyChecked!: (valid: boolean) => void;
    const late = limiter.admitIf(
      subject(5),
      new Promise<boolean>((resolve) => (keyChecked = resolve)),
    );
    await waitFor(async () => (await redis.exists(window())) === 0);
    await limiter.admit(subject(5)); // the first call of the new window
    keyChecked(false);
    expect(await late).toBeNull();
    expect(await redis.get(window())).toBe('1');
  });

  it("AUTH-2 AUTH-8: when the key of a call admitted from this process's cache turns out revoked, then everything the call took is given back", async () => {
    await limiter.admit(subject(5));
    const before = await counters();

    expect(await limiter.admitIf(subject(5), Promise.resolve(false))).toBeNull();

    expect(before).toEqual({ minute: '1', monthly: '1', keyTotal: '1', keyToday: '1' });
    expect(await counters()).toEqual(before);
  });

  it('LIM-2 LIM-4 LIM-6: when a call is admitted, then its minute point, monthly count and key counts are taken in one command', async () => {
    const admissions = jest.spyOn(
      redis as unknown as Record<string, () => unknown>,
      admitCommand(),
    );

    const decision = await limiter.admit(subject(5, 10));

    expect(decision).toMatchObject({
      outcome: 'admitted',
      minuteRemaining: 4,
      retryAfterSeconds: 0,
      monthlyUsed: 1,
      keyTotal: 1,
      crossedThreshold: null,
    });
    expect(await counters()).toEqual({ minute: '1', monthly: '1', keyTotal: '1', keyToday: '1' });
    expect(callsOnClient(admissions)).toBe(1);
  });

  it('LIM-2 LIM-6: when calls of one key arrive in the same turn, then they are admitted at once and each gets the remaining count it would have had alone', async () => {
    await limiter.admit(subject(10));
    const admissions = jest.spyOn(
      redis as unknown as Record<string, () => unknown>,
      admitCommand(),
    );

    const together = await Promise.all(Array.from({ length: 6 }, () => limiter.admit(subject(10))));

    expect(together.map((d) => [d.outcome, d.minuteRemaining])).toEqual([
      ['admitted', 8],
      ['admitted', 7],
      ['admitted', 6],
      ['admitted', 5],
      ['admitted', 4],
      ['admitted', 3],
    ]);
    expect(await redis.get(window())).toBe('7');
    expect(callsOnClient(admissions)).toBe(1);
  });

  it('LIM-2 LIM-3: when more calls arrive in one turn than the minute has room for, then exactly the room is admitted and the others are refused uncounted', async () => {
    await limiter.admit(subject(5));

    const together = await Promise.all(Array.from({ length: 7 }, () => limiter.admit(subject(5))));

    expect(together.filter((d) => d.outcome === 'admitted')).toHaveLength(4);
    const refused = together.filter((d) => d.outcome === 'rate_limited');
    expect(refused.map((d) => [d.minuteRemaining, d.retryAfterSeconds > 0])).toEqual([
      [0, true],
      [0, true],
      [0, true],
    ]);
    expect(await redis.get(window())).toBe('5');
  });

  it('LIM-3 LIM-4 LIM-6: when calls of one key arrive in the same turn, then the month counts what is left of the quota, in order, a call refused for the month keeps its minute point, and each call gets its own monthly count and key total', async () => {
    const decisions = await Promise.all(
      Array.from({ length: 6 }, () => limiter.admit(subject(5, 3))),
    );

    expect(decisions.map((d) => [d.outcome, d.monthlyUsed, d.keyTotal, d.minuteRemaining])).toEqual(
      [
        ['admitted', 1, 1, 4],
        ['admitted', 2, 2, 3],
        ['admitted', 3, 3, 2],
        ['quota_exhausted', 3, 4, 2],
        ['quota_exhausted', 3, 5, 2],
        ['rate_limited', 3, 6, 0],
      ],
    );
    expect(decisions.map((d) => d.crossedThreshold)).toEqual([null, null, 100, null, null, null]);
    expect(await counters()).toMatchObject({ minute: '3', monthly: '3', keyTotal: '6' });
  });

  it('LIM-2: when another per-minute limiter is made on the same client later, then refused calls still do not count', async () => {
    await limiter.admit(subject(2));
    // rate-limiter-flexible defines its increment script as a command of the client: the
    // collector's per-IP limiter, made later on the same client, must not change the counting.
    await perMinuteLimit(redis, `${prefix}rl:other`, 10)('203.0.113.7');
    const decisions = [];
    for (let i = 0; i < 4; i += 1) decisions.push(await limiter.admit(subject(2)));
    expect(decisions.map((d) => d.outcome)).toEqual([
      'admitted',
      'rate_limited',
      'rate_limited',
      'rate_limited',
    ]);
    expect(await redis.get(window())).toBe('2');
  });
});

describe('monthly reset', () => {
  it.each([
    ['2026-11-21T22:00:00Z', '2026-12-01T00:00:00.000Z'],
    ['2026-12-31T23:59:59Z', '2027-01-01T00:00:00.000Z'],
    ['2027-02-01T00:00:00Z', '2027-03-01T00:00:00.000Z'],
  ])('LIM-5: when it is %s, then the quota resets at %s', (now, reset) => {
    expect(monthlyResetAt(new Date(now)).toISOString()).toBe(reset);
  });
});

describe('plan changes', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('plan-changes', { WEBHOOK_WORKERS_ENABLED: 'false' });
  });
  afterAll(() => stack.stop());

  it('AUTH-5 LIM-1: when a team changes plan, then the next request sees the new plan on every cache', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    expect(
      (await callApi(stack, 'GET', '/websites', { key })).headers.get('x-ratelimit-limit'),
    ).toBe('30');
    await stack.keys.services.accounts.setPlan(account.organization.id, 'scale');
    expect(
      (await callApi(stack, 'GET', '/websites', { key })).headers.get('x-ratelimit-limit'),
    ).toBe('60');
    await stack.keys.services.accounts.setPlan(account.organization.id, 'free');
    const refused = await callApi(stack, 'GET', '/websites', { key });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: { code: 'API_PAID_PLAN_REQUIRED', message: expect.any(String) },
    });
  });

  it('LIM-8: when a team moves to a plan with a lower per-minute limit, then what the minute already used counts against the new limit', async () => {
    const account = await buildAccount(stack, { plan: 'scale' });
    const { key } = await buildApiKey(stack, account);
    const call = () => callApi(stack, 'GET', '/usage', { key });
    for (let i = 0; i < 30; i += 1) expect((await call()).status).toBe(200);
    await stack.keys.services.accounts.setPlan(account.organization.id, 'pro');

    const after = await call();
    expect(after.status).toBe(429);
    expect(after.headers.get('x-ratelimit-limit')).toBe('30');
    expect(after.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED' } });
  });

  it('LIM-8: when a team upgrades within a minute after calls were refused, then the refused calls do not count against the new limit', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    const statuses = async (count: number) =>
      (
        await Promise.all(
          Array.from({ length: count }, () => callApi(stack, 'GET', '/usage', { key })),
        )
      ).map((r) => r.status);
    const before = await statuses(40);
    expect(before.filter((s) => s === 200)).toHaveLength(30);
    await stack.keys.services.accounts.setPlan(account.organization.id, 'scale');

    const after = await statuses(40);
    expect(after.filter((s) => s === 200)).toHaveLength(30);
    expect(after.filter((s) => s === 429)).toHaveLength(10);
  });

  it('AUTH-3: when a website is added to the organization, then an all-websites key sees it at once', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    expect(
      (await callApi<{ data: { websites: unknown[] } }>(stack, 'GET', '/websites', { key })).body
        .data.websites,
    ).toHaveLength(1);
    await stack.keys.services.accounts.createWebsite({
      organizationId: account.organization.id,
      name: 'New',
      domain: 'new.example',
    });
    expect(
      (await callApi<{ data: { websites: unknown[] } }>(stack, 'GET', '/websites', { key })).body
        .data.websites,
    ).toHaveLength(2);
  });
});
