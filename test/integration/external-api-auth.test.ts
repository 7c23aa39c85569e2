import { callApi } from '../support/api-client';
import { buildAccount, buildApiKey } from '../support/factories';
import { startStack, type Stack } from '../support/stack';
import { waitUntil } from '../support/wait';

const AUTH_BODY = (code: string) => ({ error: { code, message: expect.any(String) } });

describe('External API authentication and access', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('api-auth', { WEBHOOK_WORKERS_ENABLED: 'false' });
  });
  afterAll(() => stack.stop());

  describe('GET /websites', () => {
    it('AUTH-1: when the key is sent in X-API-Key, then the websites are returned in the success envelope', async () => {
      const account = await buildAccount(stack, { websites: 2 });
      const { key } = await buildApiKey(stack, account);
      const response = await callApi<{
        success: boolean;
        data: { websites: Array<{ id: string }> };
        timestamp: string;
      }>(stack, 'GET', '/websites', { key });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(new Date(response.body.timestamp).toISOString()).toBe(response.body.timestamp);
      expect(response.body.data.websites.map((w) => w.id)).toEqual(
        account.websites.map((w) => w.id),
      );
      // snake_case, like every other body of the API.
      expect(Object.keys(response.body.data.websites[0]!).sort()).toEqual([
        'created_at',
        'domain',
        'id',
        'name',
        'tracking_code',
      ]);
    });

    it('AUTH-1: when the key is sent as Authorization: Bearer, then it is accepted too', async () => {
      const account = await buildAccount(stack);
      const { key } = await buildApiKey(stack, account);
      const response = await callApi(stack, 'GET', '/websites', {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.status).toBe(200);
    });

    it('AUTH-2: when no key is sent, then 401 invalid_api_key with error.code and error.message', async () => {
      const response = await callApi(stack, 'GET', '/websites');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(AUTH_BODY('invalid_api_key'));
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    });

    it.each([
      ['malformed', 'not-a-key'],
      ['wrong prefix', `sk_${'a'.repeat(43)}`],
      ['unknown', `svc_${'b'.repeat(43)}`],
    ])('AUTH-2: when the key is %s, then 401 invalid_api_key', async (_case, key) => {
      const response = await callApi(stack, 'GET', '/websites', { key });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(AUTH_BODY('invalid_api_key'));
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer realm="api", error="invalid_token"',
      );
      expect(response.headers.get('x-usage-monthly')).toBeNull();
    });

    it('AUTH-3: when a key is limited to selected websites, then only those are listed', async () => {
      const account = await buildAccount(stack, { websites: 3 });
      const { key } = await buildApiKey(stack, account, { websiteIds: [account.websites[1]!.id] });
      const response = await callApi<{ data: { websites: Array<{ id: string }> } }>(
        stack,
        'GET',
        '/websites',
        { key },
      );
      expect(response.status).toBe(200);
      expect(response.body.data.websites.map((w) => w.id)).toEqual([account.websites[1]!.id]);
    });

    it('AUTH-5: when the key belongs to a Free-plan team, then 403 API_PAID_PLAN_REQUIRED', async () => {
      const account = await buildAccount(stack, { plan: 'free' });
      const { key } = await buildApiKey(stack, account);
      const response = await callApi(stack, 'GET', '/websites', { key });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(AUTH_BODY('API_PAID_PLAN_REQUIRED'));
    });

    it.each(['pro', 'scale', 'enterprise'] as const)(
      'AUTH-6: when the team is on %s, then the key works',
      async (plan) => {
        const account = await buildAccount(stack, { plan });
        const { key } = await buildApiKey(stack, account);
        const response = await callApi(stack, 'GET', '/websites', { key });
        expect(response.status).toBe(200);
      },
    );
  });

  describe('GET /websites/:websiteId', () => {
    it('AUTH-4: when the key lacks read_analytics, then 403 forbidden', async () => {
      const account = await buildAccount(stack);
      const { key } = await buildApiKey(stack, account, { permissions: ['track_events'] });
      const response = await callApi(stack, 'GET', `/websites/${account.websites[0]!.id}`, { key });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(AUTH_BODY('forbidden'));
    });

    it('AUTH-4: when the website is outside the key’s selection, then 403 forbidden', async () => {
      const account = await buildAccount(stack, { websites: 2 });
      const { key } = await buildApiKey(stack, account, { websiteIds: [account.websites[0]!.id] });
      const response = await callApi(stack, 'GET', `/websites/${account.websites[1]!.id}`, { key });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(AUTH_BODY('forbidden'));
    });

    it('AUTH-3: when the website belongs to another organization, then 403 forbidden', async () => {
      const mine = await buildAccount(stack);
      const theirs = await buildAccount(stack);
      const { key } = await buildApiKey(stack, mine);
      const response = await callApi(stack, 'GET', `/websites/${theirs.websites[0]!.id}`, { key });
      expect(response.status).toBe(403);
    });

    it('DATA-6: when the website does not exist, then 404 not_found in the error envelope', async () => {
      const account = await buildAccount(stack);
      const { key } = await buildApiKey(stack, account);
      for (const id of ['000000000000000000000000', 'not-an-id']) {
        const response = await callApi(stack, 'GET', `/websites/${id}`, { key });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({
          success: false,
          error: { code: 'not_found', message: 'Website not found', timestamp: expect.any(String) },
        });
      }
    });

    it('when the website is accessible, then it is returned with its tracking code', async () => {
      const account = await buildAccount(stack);
      const { key } = await buildApiKey(stack, account);
      const website = account.websites[0]!;
      const response = await callApi<{ data: Record<string, unknown> }>(
        stack,
        'GET',
        `/websites/${website.id}`,
        { key },
      );
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        id: website.id,
        name: website.name,
        domain: website.domain,
        tracking_code: website.trackingCode,
        created_at: website.createdAt.toISOString(),
      });
    });
  });

  describe('key lifecycle', () => {
    it('KEY-9: when a key is deleted, then the next request is refused as invalid at once', async () => {
      const account = await buildAccount(stack);
      const created = await buildApiKey(stack, account);
      expect((await callApi(stack, 'GET', '/websites', { key: created.key })).status).toBe(200);
      await stack.keys.services.credentials.deleteApiKey(created.apiKey.id);
      const response = await callApi(stack, 'GET', '/websites', { key: created.key });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(AUTH_BODY('invalid_api_key'));
    });

    it('KEY-8: when a key is regenerated, then the old value is refused at once and the new one works', async () => {
      const account = await buildAccount(stack);
      const created = await buildApiKey(stack, account);
      expect((await callApi(stack, 'GET', '/websites', { key: created.key })).status).toBe(200);
      const regenerated = await stack.keys.services.credentials.regenerateApiKey(created.apiKey.id);
      expect(regenerated.key).not.toBe(created.key);
      expect((await callApi(stack, 'GET', '/websites', { key: created.key })).status).toBe(401);
      expect((await callApi(stack, 'GET', '/websites', { key: regenerated.key })).status).toBe(200);
    });

    it('KEY-6: when a key passes its expiration, then 401 key_expired', async () => {
      const account = await buildAccount(stack);
      const created = await buildApiKey(stack, account, {
        expiration: new Date(Date.now() + 1_000),
      });
      expect((await callApi(stack, 'GET', '/websites', { key: created.key })).status).toBe(200);
      await waitUntil(created.apiKey.expiresAt!);
      const response = await callApi(stack, 'GET', '/websites', { key: created.key });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(AUTH_BODY('key_expired'));
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer realm="api", error="invalid_token"',
      );
    });

    it('KEY-3: when a key is created, then its value is svc_ followed by at least 32 random bytes', async () => {
      const account = await buildAccount(stack);
      const { key, apiKey } = await buildApiKey(stack, account);
      expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43,}$/);
      expect(key.startsWith(apiKey.prefix)).toBe(true);
    });

    it('KEY-2: when a key is created without options, then it reads analytics and tracks events, for all websites, for one year', async () => {
      const account = await buildAccount(stack);
      const { apiKey } = await buildApiKey(stack, account);
      expect(apiKey.permissions).toEqual(['read_analytics', 'track_events']);
      expect(apiKey.websiteAccess).toBe('all');
      const year = apiKey.expiresAt!.getTime() - apiKey.createdAt.getTime();
      expect(year).toBeGreaterThanOrEqual(365 * 86_400_000 - 5_000);
      expect(year).toBeLessThanOrEqual(366 * 86_400_000 + 5_000);
    });
  });

  describe('read-only surface', () => {
    it.each(['PUT', 'PATCH', 'DELETE', 'POST'])(
      'SURF-1: when %s is sent to /websites, then 405 with an Allow header',
      async (method) => {
        const response = await callApi(stack, method, '/websites');
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('GET, HEAD');
        expect(response.body).toEqual({
          success: false,
          error: {
            code: 'method_not_allowed',
            message: expect.any(String),
            timestamp: expect.any(String),
          },
        });
      },
    );

    it('KEY-10: when a key-management path is requested, then it does not exist in the External API', async () => {
      const response = await callApi(stack, 'GET', '/keys', { undocumented: true });
      expect(response.status).toBe(404);
    });
  });
});
