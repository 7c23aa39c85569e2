import { loadWebhooksConfig } from '../../subgraphs/webhooks/src/config';

const base = { INTERNAL_SECRET: 'a'.repeat(64) };

describe('webhooks configuration', () => {
  it('when nothing is set, then loopback is refused, retries start at one minute, a webhook failing 5 days is disabled and a development key is derived', () => {
    const config = loadWebhooksConfig(base);
    expect(config.allowLoopback).toBe(false);
    expect(config.delivery).toEqual({
      timeoutMs: 10_000,
      retryBaseMs: 60_000,
      maxAttempts: 9,
      concurrency: 32,
      perWebhookConcurrency: 4,
      responseBodyLimit: 2_048,
      disableAfterMs: 5 * 86_400_000,
    });
    expect(config.secretKey).toHaveLength(32);
    expect(
      loadWebhooksConfig({ ...base, WEBHOOK_DISABLE_AFTER_DAYS: '0.5' }).delivery.disableAfterMs,
    ).toBe(43_200_000);
    expect(() => loadWebhooksConfig({ ...base, WEBHOOK_DISABLE_AFTER_DAYS: '0' })).toThrow(
      /WEBHOOK_DISABLE_AFTER_DAYS/,
    );
  });

  it('when in production without WEBHOOK_SECRET_KEY, or with loopback allowed, then it refuses to start', () => {
    expect(() => loadWebhooksConfig({ ...base, NODE_ENV: 'production' })).toThrow(
      /WEBHOOK_SECRET_KEY/,
    );
    expect(() =>
      loadWebhooksConfig({
        ...base,
        NODE_ENV: 'production',
        WEBHOOK_SECRET_KEY: 'b'.repeat(64),
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      }),
    ).toThrow(/WEBHOOK_ALLOW_LOOPBACK/);
  });

  it('when WEBHOOK_SECRET_KEY is hex or base64 of 32 bytes, then it is used; otherwise it is refused', () => {
    expect(
      loadWebhooksConfig({ ...base, WEBHOOK_SECRET_KEY: 'b'.repeat(64) }).secretKey.toString('hex'),
    ).toBe('b'.repeat(64));
    expect(
      loadWebhooksConfig({ ...base, WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') })
        .secretKey,
    ).toEqual(Buffer.alloc(32, 7));
    expect(() => loadWebhooksConfig({ ...base, WEBHOOK_SECRET_KEY: 'short' })).toThrow(
      /WEBHOOK_SECRET_KEY/,
    );
  });
});
