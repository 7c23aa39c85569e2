import { readManifest } from '../../common/contracts/persisted-operations';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { http } from '../support/http';
import { expectMatchesOpenApi } from '../support/openapi';
import { startStack, type Stack } from '../support/stack';

describe('the API surface', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('surface', {
      WEBHOOK_WORKERS_ENABLED: 'false',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    });
  });
  afterAll(() => stack.stop());

  it('SURF-2: when a valid key calls every route of the spec, then each answers 200 in the success envelope, from a persisted operation sent as id and variables only', async () => {
    const account = await buildAccount(stack, { plan: 'enterprise' });
    const { key } = await buildApiKey(stack, account);
    const id = account.websites[0]!.id;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/websites'],
      ['GET', `/websites/${id}`],
      ['GET', `/analytics/${id}`],
      ['GET', `/analytics/${id}/visitors`],
      ['GET', `/analytics/${id}/countries`],
      ['GET', `/analytics/${id}/pages`],
      ['GET', `/analytics/${id}/technology`],
      ['GET', `/heatmaps/${id}/pages`],
      ['GET', `/replays/${id}/sessions`],
      ['GET', `/errors/${id}/groups`],
      ['GET', '/usage'],
      ['POST', `/query/${id}`, { metrics: ['pageviews'] }],
    ];
    // What the facade hands its engine (the gateway's, in process): observed, not replaced.
    const { apollo } = stack.facade.engine;
    const executeOperation = apollo.executeOperation.bind(apollo);
    const sent: Array<Record<string, unknown>> = [];
    apollo.executeOperation = ((request: Record<string, unknown>, options: never) => {
      sent.push(request);
      return executeOperation(request, options);
    }) as typeof apollo.executeOperation;
    try {
      await callEveryRoute(key, routes);
    } finally {
      apollo.executeOperation = executeOperation;
    }
    const manifestIds = new Set(readManifest().operations.map((op) => op.id));
    expect(sent.length).toBeGreaterThanOrEqual(routes.length);
    for (const request of sent) {
      expect(request.query).toBeUndefined();
      const { sha256Hash } = (request.extensions as { persistedQuery: { sha256Hash: string } })
        .persistedQuery;
      expect(manifestIds.has(sha256Hash)).toBe(true);
    }
  });

  async function callEveryRoute(key: string, routes: Array<[string, string, unknown?]>) {
    for (const [method, path, body] of routes) {
      const url = `${stack.facade.url}/api/external/v1${path}`;
      const response = await http<{ success: boolean }>(url, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect([method, path, response.status]).toEqual([method, path, 200]);
      expect(response.body.success).toBe(true);
      expectMatchesOpenApi(method, url, response);
    }
  }

  it('SURF-3: when an access token calls every webhook-management route, then each exists with its method', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const base = `${stack.facade.url}/v1/cli/mutate/webhooks`;
    const auth = { authorization: `Bearer ${token}` };
    const list = await http(base, { headers: auth });
    expect(list.status).toBe(200);
    expect((await http(`${base}/event-types`, { headers: auth })).status).toBe(200);
    const unknown = '000000000000000000000000';
    for (const [method, path] of [
      ['GET', `/${unknown}/deliveries`],
      ['POST', `/${unknown}/deliveries/dlv_unknown/redeliver`],
      ['POST', `/${unknown}/test`],
      ['POST', `/${unknown}/rotate`],
      ['POST', `/${unknown}/enable`],
      ['DELETE', `/${unknown}`],
    ] as const) {
      const response = await http<{ error: { code: string } }>(`${base}${path}`, {
        method,
        headers: auth,
      });
      expect([method, path, response.status, response.body.error.code]).toEqual([
        method,
        path,
        404,
        'not_found',
      ]);
    }
    const create = await http(base, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
    });
    expect(create.status).toBe(201);
  });

  it.each([
    ['PUT', '', 'GET, HEAD, POST'],
    ['PATCH', '/000000000000000000000000', 'DELETE'],
    ['POST', '/000000000000000000000000/deliveries', 'GET, HEAD'],
    ['POST', '/event-types', 'GET, HEAD'],
  ])(
    'SURF-3: when %s is sent to a webhook-management path, then 405 with an Allow header, as documented',
    async (method, path, allowed) => {
      const account = await buildAccount(stack);
      const { token } = await buildAccessToken(stack, account.user.id);
      const url = `${stack.facade.url}/v1/cli/mutate/webhooks${path}`;
      const response = await http(url, { method, headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allowed);
      expectMatchesOpenApi(method, url, response);
    },
  );

  it('SURF-5: when another version segment is used, then nothing answers there', async () => {
    const account = await buildAccount(stack);
    const { key } = await buildApiKey(stack, account);
    expect(
      (await http(`${stack.facade.url}/api/external/v2/usage`, { headers: { 'x-api-key': key } }))
        .status,
    ).toBe(404);
    expect(
      (await http(`${stack.facade.url}/api/external/usage`, { headers: { 'x-api-key': key } }))
        .status,
    ).toBe(404);
    expect((await http(`${stack.facade.url}/v2/cli/mutate/webhooks`)).status).toBe(404);
    expect(
      (await http(`${stack.facade.url}/api/external/v1/usage`, { headers: { 'x-api-key': key } }))
        .status,
    ).toBe(200);
  });

  it.each([
    '/api/external/V1/usage',
    '/api/external/v1/USAGE',
    '/api/external/v1/usage/',
    '/API/external/v1/usage',
    '/v1/cli/mutate/webhooks/',
    '/v1/CLI/mutate/webhooks',
  ])(
    'SURF-5: when %s (another case, or a trailing slash) is asked for, then 404: only the documented paths answer',
    async (path) => {
      const account = await buildAccount(stack, { plan: 'enterprise' });
      const { key } = await buildApiKey(stack, account);
      const { token } = await buildAccessToken(stack, account.user.id);
      const response = await http<{ error: { code: string } }>(`${stack.facade.url}${path}`, {
        headers: path.startsWith('/v1')
          ? { authorization: `Bearer ${token}` }
          : { 'x-api-key': key },
      });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it('SURF-4: when a valid key meets a 405 or an unknown path, then the answer comes before the key: no usage headers, nothing counted', async () => {
    const account = await buildAccount(stack, { plan: 'enterprise' });
    const { key } = await buildApiKey(stack, account);
    const usage = `${stack.facade.url}/api/external/v1/usage`;
    const headers = { 'x-api-key': key };
    const first = await http(usage, { headers });
    expect(first.headers.get('x-usage-total')).toBe('1');

    const refused = [
      await http(usage, { method: 'DELETE', headers }),
      await http(`${stack.facade.url}/api/external/v1/nope`, { headers }),
    ];
    expect(refused.map((r) => r.status)).toEqual([405, 404]);
    for (const response of refused) {
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      expect(response.headers.get('x-usage-total')).toBeNull();
    }
    const after = await http(usage, { headers });
    expect(after.headers.get('x-usage-total')).toBe('2');
  });

  it('PLAT-3: when a client reads the OpenAPI document, then it finds the 5-minute polling guidance and the back-off schedule', async () => {
    const response = await http<{ info: { description: string } }>(
      `${stack.facade.url}/api/external/v1/openapi.json`,
    );
    expect(response.status).toBe(200);
    expect(response.body.info.description).toContain('every 5 minutes');
    expect(response.body.info.description).toContain('Retry-After');
  });
});
