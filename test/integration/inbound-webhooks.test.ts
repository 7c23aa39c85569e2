import { createHmac, randomBytes } from 'node:crypto';
import { createRedis, waitForRedis } from '../../common/platform/redis';
import { callApi } from '../support/api-client';
import { buildAccount, buildApiKey } from '../support/factories';
import { graphql, http } from '../support/http';
import { startStack, type Stack } from '../support/stack';

const SECRET = 'whpay_test_secret_0123456789';

const nowSeconds = () => Math.floor(Date.now() / 1000);

function signed(body: unknown, secret = SECRET, at = Math.floor(Date.now() / 1000)) {
  const raw = JSON.stringify(body);
  const v1 = createHmac('sha256', secret).update(`${at}.${raw}`).digest('hex');
  return { raw, signature: `t=${at},v1=${v1}` };
}

describe('inbound webhooks from the payment processor and uptime monitors', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('inbound-webhooks', {
      PAYMENT_WEBHOOK_SECRET: SECRET,
      WEBHOOK_WORKERS_ENABLED: 'false',
    });
  });
  afterAll(() => stack.stop());

  const post = (raw: string, signature?: string) =>
    http<Record<string, unknown>>(`${stack.gateway.url}/hooks/payments`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'payment-signature': signature } : {}),
      },
      body: raw,
    });

  it('PLAT-2: when the processor reports a paid checkout, then the team’s plan changes at once, and a redelivery changes nothing more', async () => {
    const account = await buildAccount(stack, { plan: 'free' });
    const { key } = await buildApiKey(stack, account);
    expect((await callApi(stack, 'GET', '/usage', { key })).status).toBe(403);

    const event = {
      id: `evt_${randomBytes(6).toString('hex')}`,
      created: nowSeconds(),
      type: 'checkout.completed',
      data: { organizationId: account.organization.id, plan: 'scale' },
    };
    const { raw, signature } = signed(event);
    const first = await post(raw, signature);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, applied: true });
    const usage = await callApi<{ data: { tier: string } }>(stack, 'GET', '/usage', { key });
    expect(usage.status).toBe(200);
    expect(usage.body.data.tier).toBe('scale');

    const again = await post(raw, signature);
    expect(again.body).toEqual({ received: true, applied: false });

    const cancelled = signed({
      id: `evt_${randomBytes(6).toString('hex')}`,
      created: nowSeconds(),
      type: 'subscription.deleted',
      data: { organizationId: account.organization.id },
    });
    expect((await post(cancelled.raw, cancelled.signature)).status).toBe(200);
    expect((await callApi(stack, 'GET', '/usage', { key })).status).toBe(403);
  });

  it.each([
    ['no signature', undefined],
    ['a wrong secret', 'other-secret-0123456789'],
    ['an old timestamp', 'old'],
  ])(
    'PLAT-2: when an event arrives with %s, then 401 and nothing changes',
    async (_case, variant) => {
      const account = await buildAccount(stack, { plan: 'pro' });
      const event = {
        id: `evt_${randomBytes(6).toString('hex')}`,
        created: nowSeconds(),
        type: 'subscription.updated',
        data: { organizationId: account.organization.id, plan: 'enterprise' },
      };
      const { raw, signature } =
        variant === 'old'
          ? signed(event, SECRET, Math.floor(Date.now() / 1000) - 3_600)
          : signed(event, variant ?? SECRET);
      const response = await post(raw, variant === undefined ? undefined : signature);
      expect(response.status).toBe(401);
      const [org] = await stack.keys.services.accounts.organizationsByIds([
        account.organization.id,
      ]);
      expect(org!.plan).toBe('pro');
    },
  );

  it('PLAT-2: when an older event arrives after a newer one (processors redeliver out of order), then it changes nothing', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const change = (plan: string, created: number) =>
      signed({
        id: `evt_${randomBytes(6).toString('hex')}`,
        created,
        type: 'subscription.updated',
        data: { organizationId: account.organization.id, plan },
      });
    const newer = change('scale', nowSeconds());
    const older = change('enterprise', nowSeconds() - 60);
    expect((await post(newer.raw, newer.signature)).body).toEqual({
      received: true,
      applied: true,
    });
    expect((await post(older.raw, older.signature)).body).toEqual({
      received: true,
      applied: false,
    });
    const [org] = await stack.keys.services.accounts.organizationsByIds([account.organization.id]);
    expect(org!.plan).toBe('scale');
  });

  it('LIM-1: when an Enterprise update carries no custom limits, then the limits support set stay', async () => {
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMinute: 500, requestsPerMonth: 5_000_000 },
    });
    const update = signed({
      id: `evt_${randomBytes(6).toString('hex')}`,
      created: nowSeconds(),
      type: 'subscription.updated',
      data: { organizationId: account.organization.id, plan: 'enterprise' },
    });
    expect((await post(update.raw, update.signature)).body).toEqual({
      received: true,
      applied: true,
    });
    const [org] = await stack.keys.services.accounts.organizationsByIds([account.organization.id]);
    expect(org!.limits).toEqual({ requestsPerMinute: 500, requestsPerMonth: 5_000_000 });

    const perMinuteOnly = signed({
      id: `evt_${randomBytes(6).toString('hex')}`,
      created: nowSeconds() + 1,
      type: 'subscription.updated',
      data: { organizationId: account.organization.id, plan: 'enterprise', requestsPerMinute: 800 },
    });
    expect((await post(perMinuteOnly.raw, perMinuteOnly.signature)).status).toBe(200);
    const [updated] = await stack.keys.services.accounts.organizationsByIds([
      account.organization.id,
    ]);
    expect(updated!.limits).toEqual({ requestsPerMinute: 800, requestsPerMonth: 5_000_000 });
  });

  /** A Pro team, a signed upgrade to Scale, and another change holding the team's plan lock. */
  async function upgradeWhilePlanLocked() {
    const account = await buildAccount(stack, { plan: 'pro' });
    const lockKey = `${stack.env.REDIS_KEY_PREFIX}lock:plan:${account.organization.id}`;
    const redis = createRedis(stack.env.REDIS_URL!);
    await waitForRedis(redis);
    await redis.set(lockKey, 'another-change', 'PX', 30_000);
    const event = signed({
      id: `evt_${randomBytes(6).toString('hex')}`,
      created: nowSeconds(),
      type: 'subscription.updated',
      data: { organizationId: account.organization.id, plan: 'scale' },
    });
    return {
      account,
      event,
      release: () => redis.del(lockKey),
      close: async () => {
        await redis.del(lockKey);
        redis.disconnect();
      },
    };
  }

  it('PLAT-2: when another plan change holds the organization too long, then 503 (the processor retries) and the redelivery applies', async () => {
    const { event, release, close } = await upgradeWhilePlanLocked();
    try {
      const busy = await post(event.raw, event.signature);
      expect(busy.status).toBe(503);
      await release();
      const redelivered = await post(event.raw, event.signature);
      expect(redelivered.body).toEqual({ received: true, applied: true });
    } finally {
      await close();
    }
  });

  it('PLAT-2: when the processor redelivers an event while its first delivery still waits and then fails, then neither is acknowledged and the next redelivery applies it', async () => {
    const { account, event, release, close } = await upgradeWhilePlanLocked();
    const { billing } = stack.keys.services;
    const apply = billing.apply.bind(billing);
    let waiting!: () => void;
    const firstWaits = new Promise<void>((resolve) => (waiting = resolve));
    const applied = jest.spyOn(billing, 'apply').mockImplementationOnce((input) => {
      const applying = apply(input); // asks for the plan's lock before it returns
      waiting();
      return applying;
    });
    try {
      const first = post(event.raw, event.signature);
      await firstWaits;
      const second = await post(event.raw, event.signature);
      // Not applied yet: a 2xx would make the processor stop redelivering it.
      expect([(await first).status, second.status]).toEqual([503, 503]);
      await release();
      expect((await post(event.raw, event.signature)).body).toEqual({
        received: true,
        applied: true,
      });
      const [organization] = await stack.keys.services.accounts.organizationsByIds([
        account.organization.id,
      ]);
      expect(organization!.plan).toBe('scale');
      expect((await post(event.raw, event.signature)).body).toEqual({
        received: true,
        applied: false,
      });
    } finally {
      applied.mockRestore();
      await close();
    }
  });

  it('PLAT-2: when a signed body is not an event we understand, then 400 and nothing changes', async () => {
    const { raw, signature } = signed({ id: 'evt_x', type: 'invoice.paid', data: {} });
    const response = await post(raw, signature);
    expect(response.status).toBe(400);
  });

  it('PLAT-2: when the event names an unknown organization, then 422 so the processor stops retrying', async () => {
    const { raw, signature } = signed({
      id: `evt_${randomBytes(6).toString('hex')}`,
      created: nowSeconds(),
      type: 'subscription.updated',
      data: { organizationId: '000000000000000000000000', plan: 'pro' },
    });
    expect((await post(raw, signature)).status).toBe(422);
  });

  it('PLAT-2: when an uptime monitor triggers a health check, then /readyz reports every upstream', async () => {
    const response = await http<{ status: string; checks: Record<string, string> }>(
      `${stack.gateway.url}/readyz`,
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'ready',
      checks: { redis: 'ok', analytics: 'ok', keys: 'ok', webhooks: 'ok' },
    });
  });

  it('PLAT-2: when a customer looks for these hooks in the API, then there is nothing to configure', async () => {
    const schema = await graphql<{
      __schema: { mutationType: { fields: Array<{ name: string }> } };
    }>(stack.gateway.graphqlUrl, '{ __schema { mutationType { fields { name } } } }');
    expect(schema.body.data!.__schema.mutationType.fields.map((f) => f.name)).not.toContain(
      'applyPaymentEvent',
    );
  });
});
