import { createLogger } from '../../common/platform/logger';
import { startFacade, type RunningFacade } from '../../rest-facade/src/app';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import { buildAccount, buildApiKey } from '../support/factories';
import { http } from '../support/http';
import { expectMatchesOpenApi } from '../support/openapi';
import { startStack, type Stack } from '../support/stack';
import { startTcpProxy } from '../support/tcp-proxy';
import { waitFor } from '../support/wait';

describe('External API when Redis is unavailable', () => {
  let stack: Stack;
  let facade: RunningFacade;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  const warnings: string[] = [];

  beforeAll(async () => {
    stack = await startStack('redis-outage', { WEBHOOK_WORKERS_ENABLED: 'false' });
    proxy = await startTcpProxy(
      Number(new URL(stack.env.REDIS_URL!).port || 6379),
      new URL(stack.env.REDIS_URL!).hostname,
    );
    const logger = createLogger('facade-behind-proxy', 'warn', {
      write: (line: string) => void warnings.push(line),
    });
    facade = await startFacade(
      loadFacadeConfig({
        ...stack.env,
        ...stack.subgraphEnv,
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      }),
      logger,
    );
  });
  afterAll(async () => {
    await facade.stop();
    await proxy.close().catch(() => undefined);
    await stack.stop();
  });

  let made = 0;
  const get = async (key: string, path = '/websites') => {
    made += 1;
    const url = `${facade.url}/api/external/v1${path}`;
    const response = await http(url, { headers: { 'x-api-key': key } });
    expectMatchesOpenApi('GET', url, response);
    return response;
  };

  it('LIM-6: when Redis goes away, then the API keeps answering within an in-memory limit, omits the inexact headers, logs it, and recovers by itself, adding the calls it answered meanwhile to the key total', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    const healthy = await get(key);
    expect(healthy.status).toBe(200);
    expect(healthy.headers.get('x-ratelimit-remaining')).toBe('29');

    // What the outage costs the call log and the Redis client, counted from the cut.
    let flushes = 0;
    // The writer's periodic append of its buffer (every second).
    const writer = facade.deps.callLog as unknown as { appendBuffered(): Promise<void> };
    const append = writer.appendBuffered.bind(writer);
    const flushing = jest.spyOn(writer, 'appendBuffered').mockImplementation(async () => {
      await append();
      flushes += 1;
    });
    let redisFailures = 0;
    const countFailure = () => (redisFailures += 1);
    facade.deps.redis.on('error', countFailure);

    await proxy.cut();
    const during = await get(key);
    expect(during.status).toBe(200);
    expect(during.headers.get('x-ratelimit-limit')).toBe('30');
    expect(during.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(during.headers.get('x-usage-monthly')).toBeNull();
    expect(during.headers.get('x-usage-limit')).toBe('10000');
    expect(warnings.join('')).toContain('redis unavailable');

    // The insurance limiter still enforces the plan's per-minute limit (this instance's count).
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await get(key, '/usage')).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(29);
    const limited = await get(key, '/usage');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // The call log keeps its records for later and says so once, not at every flush (250 ms);
    // ioredis reconnects every 0.2–2 s, and the outage is logged once, not at every attempt.
    const flushWarnings = () =>
      warnings.filter((line) => line.includes('redis cannot take call log batches: holding them'))
        .length;
    await waitFor(() => flushWarnings() > 0);
    const warnedAt = flushes;
    await waitFor(() => flushes >= warnedAt + 2 && redisFailures >= 2);
    expect(flushWarnings()).toBe(1);
    const redisErrors = () => warnings.filter((line) => line.includes('"msg":"redis error"'));
    expect(redisErrors()).toHaveLength(1);
    facade.deps.redis.off('error', countFailure);

    await proxy.restore();
    const recovered = await waitFor(async () => {
      const response = await get(key, '/usage');
      return response.headers.get('x-ratelimit-remaining') !== null && response;
    });
    // Back on Redis: the exact count continues from what Redis had (1 request before the outage).
    expect(recovered.headers.get('x-usage-monthly')).toBe('2');
    flushing.mockRestore();
    await facade.deps.callLog.flush();
    expect(flushWarnings()).toBe(1);
    // The calls answered during the outage are added to the key's total once Redis is back.
    const total = await waitFor(async () => {
      const response = await get(key, '/usage');
      const shown = Number(response.headers.get('x-usage-total'));
      return shown === made && shown;
    });
    expect(total).toBeGreaterThan(32);
    expect(warnings.join('')).not.toContain('"level":"error"');
  });
  it('when Redis goes away after reads were cached, then reads bypass the cache and show the current data, and the cache serves again once Redis is back', async () => {
    const account = await buildAccount(stack);
    const { key } = await buildApiKey(stack, account);
    await get(key);
    expect((await get(key)).headers.get('x-cache')).toBe('HIT');
    await proxy.cut();
    // Changed while this facade cannot reach Redis: the change is announced, the facade cannot read it.
    await stack.keys.services.accounts.createWebsite({
      organizationId: account.organization.id,
      name: 'During the outage',
      domain: `outage-${Date.now()}.example`,
    });
    const during = await get(key);
    expect(during.status).toBe(200);
    expect(during.headers.get('x-cache')).toBe('BYPASS');
    expect((during.body as { data: { websites: unknown[] } }).data.websites).toHaveLength(2);
    await proxy.restore();
    await waitFor(async () => (await get(key)).headers.get('x-cache') === 'HIT');
    const after = await get(key);
    expect((after.body as { data: { websites: unknown[] } }).data.websites).toHaveLength(2);
  });
});
