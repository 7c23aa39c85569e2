import { totalmem } from 'node:os';
import { ConfigError } from '../../common/platform/config';
import { trustProxySetting } from '../../common/platform/trusted-proxies';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import { loadGatewayConfig } from '../../gateway/src/config';
import { loadKeysConfig } from '../../subgraphs/keys/src/config';
import { loadAnalyticsConfig } from '../../subgraphs/analytics/src/config';
import { loadWebhooksConfig } from '../../subgraphs/webhooks/src/config';

const secret = 'a'.repeat(64);

describe('configuration', () => {
  it('when nothing but the secret is set, then the documented defaults apply', () => {
    const config = loadGatewayConfig({ INTERNAL_SECRET: secret });
    expect(config.port).toBe(4000);
    expect(config.subgraphUrls).toEqual({
      analytics: 'http://127.0.0.1:4001/graphql',
      keys: 'http://127.0.0.1:4002/graphql',
      webhooks: 'http://127.0.0.1:4003/graphql',
    });
    expect(config.introspection).toBe(true);
    expect(loadFacadeConfig({ INTERNAL_SECRET: secret }).port).toBe(3000);
    expect(loadKeysConfig({ INTERNAL_SECRET: secret }).port).toBe(4002);
  });

  it('when NODE_ENV is production, then introspection is off unless configured', () => {
    expect(
      loadGatewayConfig({ INTERNAL_SECRET: secret, NODE_ENV: 'production' }).introspection,
    ).toBe(false);
    expect(
      loadGatewayConfig({
        INTERNAL_SECRET: secret,
        NODE_ENV: 'production',
        GATEWAY_INTROSPECTION: 'true',
      }).introspection,
    ).toBe(true);
  });

  it('when a secret is too short, then the error names the variable but never echoes the value', () => {
    let error: unknown;
    try {
      loadKeysConfig({ INTERNAL_SECRET: 'short-secret-value' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('INTERNAL_SECRET');
    expect((error as ConfigError).message).not.toContain('short-secret-value');
  });

  it.each([
    ['REDIS_URL', 'redis//:S3cretPass@cache:6379'],
    ['MONGODB_URI', 'postgres://admin:S3cretPass@db/wa_keys'],
  ])(
    'when %s is malformed and holds a password, then the error names it without the password',
    (variable, value) => {
      const message = (() => {
        try {
          loadKeysConfig({ INTERNAL_SECRET: secret, [variable]: value });
          return 'accepted';
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(message).toMatch(new RegExp(`${variable}.*\\[redacted\\]@`));
      expect(message).not.toContain('S3cretPass');
    },
  );

  it('when a service listens beyond loopback without NODE_ENV, then it refuses to start rather than assume development', () => {
    expect(() => loadGatewayConfig({ INTERNAL_SECRET: secret, HOST: '0.0.0.0' })).toThrow(
      /NODE_ENV: required when HOST is not a loopback address/,
    );
    expect(
      loadGatewayConfig({ INTERNAL_SECRET: secret, HOST: '0.0.0.0', NODE_ENV: 'production' })
        .nodeEnv,
    ).toBe('production');
    expect(loadKeysConfig({ INTERNAL_SECRET: secret, HOST: '127.0.0.1' }).nodeEnv).toBe(
      'development',
    );
  });

  it.each([
    [
      'webhooks',
      () =>
        loadWebhooksConfig({
          INTERNAL_SECRET: secret,
          WEBHOOKS_PORT: 'x',
          WEBHOOK_MAX_ATTEMPTS: '0',
        }),
      ['WEBHOOKS_PORT', 'WEBHOOK_MAX_ATTEMPTS'],
    ],
    [
      'analytics',
      () =>
        loadAnalyticsConfig({
          INTERNAL_SECRET: secret,
          ANALYTICS_PORT: 'x',
          ANALYTICS_INGEST_BATCH: '0',
        }),
      ['ANALYTICS_PORT', 'ANALYTICS_INGEST_BATCH'],
    ],
    [
      'keys',
      () =>
        loadKeysConfig({
          INTERNAL_SECRET: secret,
          KEYS_PORT: 'x',
          KEY_EXPIRY_SCAN_INTERVAL_MS: 'soon',
        }),
      ['KEYS_PORT', 'KEY_EXPIRY_SCAN_INTERVAL_MS'],
    ],
  ])(
    'when the %s service has a bad shared and a bad own setting, then one error names both',
    (_service, load, variables) => {
      let problems: string[] = [];
      try {
        load();
      } catch (error) {
        problems = (error as ConfigError).problems;
      }
      for (const variable of variables)
        expect(problems.some((p) => p.startsWith(`${variable}:`))).toBe(true);
    },
  );

  it('when TRUSTED_PROXIES names no proxy Express understands, then the gateway and the facade both refuse to start, naming it', () => {
    for (const load of [loadGatewayConfig, loadFacadeConfig])
      expect(() => load({ INTERNAL_SECRET: secret, TRUSTED_PROXIES: 'the-balancer' })).toThrow(
        /TRUSTED_PROXIES: must be a number of hops/,
      );
  });

  it('when TRUSTED_PROXIES is a number, then it counts hops rather than naming the address 0.0.0.1', () => {
    const { trustedProxies } = loadGatewayConfig({ INTERNAL_SECRET: secret, TRUSTED_PROXIES: '1' });
    expect(trustProxySetting(trustedProxies)).toBe(1);
    expect(trustProxySetting('loopback, 10.0.0.0/8')).toBe('loopback, 10.0.0.0/8');
    expect(trustProxySetting('')).toBe(false);
  });

  it('when a MongoDB URI has the wrong scheme, then MONGODB_URI is named', () => {
    expect(() => loadKeysConfig({ INTERNAL_SECRET: secret, MONGODB_URI: 'postgres://x' })).toThrow(
      /MONGODB_URI/,
    );
  });

  it('when the engine memory is not set, then DuckDB gets a quarter of the memory here, and the setting wins when it is', () => {
    const secret = 'a'.repeat(32);
    const unset = loadAnalyticsConfig({ INTERNAL_SECRET: secret });
    const set = loadAnalyticsConfig({ INTERNAL_SECRET: secret, ANALYTICS_ENGINE_MEMORY_MB: '700' });
    const quarter = Math.floor(
      Math.min(totalmem(), process.constrainedMemory() || Infinity) / 4 / 1024 / 1024,
    );
    expect(unset.engine.memoryLimit).toBe(`${Math.max(512, quarter)}MB`);
    expect(set.engine.memoryLimit).toBe('700MB');
  });
});
