import { createHash } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { parse } from 'graphql';
import type { RedisClient } from '../../common/platform/redis';
import { openTestRedis } from '../support/redis';
import { signIdentity, type CallerIdentity } from '../../common/contracts/identity';
import { createLogger } from '../../common/platform/logger';
import { startGateway, type RunningGateway } from '../../gateway/src/app';
import { loadGatewayConfig } from '../../gateway/src/config';
import { readManifest } from '../../common/contracts/persisted-operations';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { graphql, http } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { QUERY_LIMITS } from '../../gateway/src/query-limits';
import { tokensLastUsed } from '../../common/contracts/token-use';
import { waitFor } from '../support/wait';
import { captureLogs } from '../support/log-capture';

const persisted = (name: string) => {
  const op = readManifest().operations.find((o) => o.name === name)!;
  return {
    operationName: name,
    variables: {},
    extensions: { persistedQuery: { version: 1, sha256Hash: op.id } },
  };
};

/** POSTs a GraphQL `body` to the gateway at `url` with `headers`. */
const postTo = <T>(url: string, body: object, headers: Record<string, string>) =>
  http<T>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** POSTs the persisted operation `name` straight to the stack's gateway with `headers`. */
const sendPersisted = <T>(stack: Stack, name: string, headers: Record<string, string>) =>
  postTo<T>(stack.gateway.graphqlUrl, persisted(name), headers);

describe('gateway in development', () => {
  let stack: Stack;
  let redis: RedisClient;
  beforeAll(async () => {
    stack = await startStack('gateway-dev', {
      NODE_ENV: 'development',
      WEBHOOK_WORKERS_ENABLED: 'false',
    });
    redis = await openTestRedis(stack.env.REDIS_URL!);
  });
  afterAll(async () => {
    redis.disconnect();
    await stack.stop();
  });

  it('when a browser opens /graphql, then the bundled schema explorer is served without any CDN', async () => {
    const response = await http<string>(stack.gateway.graphqlUrl, {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.body).toContain('graphiql');
    expect(response.body).not.toMatch(/<script[^>]+src="https?:\/\//);
    expect(response.body).not.toMatch(/<link[^>]+href="https?:\/\//);
  });

  it('when a browser opens /graphql, then the explorer comes with a Content-Security-Policy admitting only its own inline scripts, and may not be framed or sniffed', async () => {
    const response = await http<string>(stack.gateway.graphqlUrl, {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = new Map(
      (response.headers.get('content-security-policy') ?? '')
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values] as const),
    );
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    const scripts = policy.get('script-src') ?? [];
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    const inline = [...response.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
      ([, code]) => `'sha256-${createHash('sha256').update(code!).digest('base64')}'`,
    );
    expect(inline.length).toBeGreaterThan(0);
    expect(scripts).toEqual(expect.arrayContaining(inline));
  });

  it('when a browser opens /graphql, then the explorer comes compressed, with an ETag that revalidates to 304', async () => {
    const url = stack.gateway.graphqlUrl;
    const plain = await fetch(url, {
      headers: { accept: 'text/html', 'accept-encoding': 'identity' },
    });
    expect(plain.status).toBe(200);
    const size = Number(plain.headers.get('content-length'));
    expect(size).toBeGreaterThan(1_000_000);
    for (const encoding of ['br', 'gzip']) {
      const response = await fetch(url, {
        headers: { accept: 'text/html', 'accept-encoding': encoding },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(Number(response.headers.get('content-length'))).toBeLessThan(size / 3);
      expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(await plain.clone().text());
      // As a browser revalidates what it holds (fetch would add Cache-Control: no-cache).
      const again = await new Promise<IncomingMessage>((resolve, reject) =>
        httpGet(
          url,
          {
            headers: {
              accept: 'text/html',
              'accept-encoding': encoding,
              'if-none-match': response.headers.get('etag')!,
            },
          },
          resolve,
        ).once('error', reject),
      );
      again.resume();
      expect(again.statusCode).toBe(304);
    }
  });

  it('when the explorer opens, then its default document explains how to authenticate and runs as an access token', async () => {
    const page = await http<string>(stack.gateway.graphqlUrl, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const options = /renderYogaGraphiQL\(\s*[^,]+,\s*(\{.*\}),\s*\);/s.exec(page.body)?.[1];
    const { defaultQuery } = JSON.parse(options!) as { defaultQuery: string };
    expect(defaultQuery).toContain('"Authorization": "Bearer wat_');
    expect(defaultQuery).toContain('admin -- token:create --user');
    expect(() => parse(defaultQuery)).not.toThrow();

    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const response = await graphql<{ me: { email: string } }>(
      stack.gateway.graphqlUrl,
      defaultQuery,
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { me: { email: account.user.email } } });
  });

  it('when introspection is asked for, then the schema is returned', async () => {
    const response = await graphql<{ __schema: { queryType: { name: string } } }>(
      stack.gateway.graphqlUrl,
      '{ __schema { queryType { name } } }',
    );
    expect(response.body.data?.__schema.queryType.name).toBe('Query');
  });

  it('when a document misspells a field or an enum value, then the messages suggest the schema’s names (introspection is on here)', async () => {
    const field = await graphql(stack.gateway.graphqlUrl, '{ me { emial } }');
    expect(field.status).toBe(400);
    expect(field.body.errors?.[0]?.message).toBe(
      'Cannot query field "emial" on type "User". Did you mean "email"?',
    );
    const value = await graphql(
      stack.gateway.graphqlUrl,
      'mutation { createApiKey(input: { organizationId: "1", name: "x", permissions: [ADMN] }) { key } }',
    );
    expect(value.body.errors?.[0]?.message).toBe(
      'Value "ADMN" does not exist in "Permission" enum. Did you mean the enum value "ADMIN"?',
    );
  });

  it('LIM-2: when an API key is sent to the gateway directly, then 403: keys are taken where limits and quotas apply', async () => {
    const account = await buildAccount(stack);
    const { key } = await buildApiKey(stack, account);
    const presented: Array<Record<string, string>> = [
      { 'x-api-key': key },
      { authorization: `Bearer ${key}` },
    ];
    for (const headers of presented) {
      const response = await sendPersisted<{ errors: Array<{ extensions: { code: string } }> }>(
        stack,
        'Usage',
        headers,
      );
      expect(response.status).toBe(403);
      expect(response.body.errors[0]!.extensions.code).toBe('api_key_not_accepted_here');
    }
  });

  describe('with API keys accepted directly (GATEWAY_DIRECT_API_KEYS, for benchmarks only)', () => {
    let direct: RunningGateway;
    const sendDirect = <T>(body: object, headers: Record<string, string>) =>
      postTo<T>(direct.graphqlUrl, body, headers);
    beforeAll(async () => {
      direct = await startGateway(
        loadGatewayConfig({
          ...stack.env,
          ...stack.subgraphEnv,
          GATEWAY_DIRECT_API_KEYS: 'true',
        }),
        createLogger('gateway-direct', 'silent'),
      );
    });
    afterAll(() => direct.stop());

    it('when an API key sends a persisted operation id, then it runs with the key’s website access', async () => {
      const account = await buildAccount(stack, { websites: 2 });
      const only = account.websites[1]!.id;
      const { key } = await buildApiKey(stack, account, { websiteIds: [only] });
      const response = await sendDirect<{ data: { websites: Array<{ id: string }> } }>(
        persisted('ListWebsites'),
        { 'x-api-key': key },
      );
      expect(response.status).toBe(200);
      expect(response.body.data.websites.map((w) => w.id)).toEqual([only]);
    });

    it('when an API key sends query text outside the manifest, then 403 PERSISTED_QUERY_REQUIRED', async () => {
      const account = await buildAccount(stack);
      const { key } = await buildApiKey(stack, account);
      const response = await sendDirect<{ errors: Array<{ extensions: { code: string } }> }>(
        { query: '{ websites { id name } }', variables: {} },
        { 'x-api-key': key },
      );
      expect(response.status).toBe(403);
      expect(response.body.errors[0]!.extensions.code).toBe('PERSISTED_QUERY_REQUIRED');
    });
  });

  it('when a request carries identity headers signed with the internal secret, then the gateway ignores them: without a credential the caller is anonymous', async () => {
    const account = await buildAccount(stack);
    const { apiKey } = await buildApiKey(stack, account);
    const identity: CallerIdentity = {
      kind: 'apiKey',
      keyId: apiKey.id,
      userId: account.user.id,
      organizationId: account.organization.id,
      permissions: ['read_analytics', 'track_events'],
      websiteIds: null,
    };
    const response = await sendPersisted<{
      data: unknown;
      errors: Array<{ extensions: { code: string } }>;
    }>(
      stack,
      'ListWebsites',
      signIdentity(stack.env.INTERNAL_SECRET!, identity, {
        audience: 'keys',
        request: persisted('ListWebsites'),
      }),
    );
    expect(response.body.errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect(JSON.stringify(response.body.data ?? null)).not.toContain(account.websites[0]!.id);
  });

  it('when a dashboard token sends any operation, then it runs', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const response = await graphql<{ websites: Array<{ id: string }> }>(
      stack.gateway.graphqlUrl,
      '{ websites { id } }',
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(response.body.data?.websites).toEqual([{ id: account.websites[0]!.id }]);
  });

  it('when a leaked token has made another and is revoked, then both are refused at once, and the user sees only their own live tokens', async () => {
    const account = await buildAccount(stack);
    const other = await buildAccount(stack);
    const leaked = await buildAccessToken(stack, account.user.id);
    const ask = (token: string, query: string) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      graphql<Record<string, any>>(
        stack.gateway.graphqlUrl,
        query,
        {},
        {
          authorization: `Bearer ${token}`,
        },
      );
    const made = await ask(
      leaked.token,
      'mutation { createAccessToken(name: "made with the leak") { token accessToken { id } } }',
    );
    const child = made.body.data!.createAccessToken;
    const grandchild = (
      await ask(child.token, 'mutation { createAccessToken(name: "and another") { token } }')
    ).body.data!.createAccessToken.token as string;
    const sibling = await buildAccessToken(stack, account.user.id);
    await buildAccessToken(stack, other.user.id);

    const listed = await ask(sibling.token, '{ me { accessTokens { id name prefix revokedAt } } }');
    const ids = listed.body.data!.me.accessTokens.map((t: { id: string }) => t.id);
    expect(ids).toHaveLength(4);
    expect(ids[0]).toBe(sibling.id);
    expect(ids).toEqual(expect.arrayContaining([leaked.id, child.accessToken.id]));
    expect(JSON.stringify(listed.body)).not.toContain(leaked.token);

    const madeIds = [leaked.id, child.accessToken.id as string];
    const lastUsed = () => tokensLastUsed(redis, stack.env.REDIS_KEY_PREFIX!, madeIds);
    await waitFor(async () => (await lastUsed()).size === madeIds.length);

    const revoked = await ask(sibling.token, `mutation { revokeAccessToken(id: "${leaked.id}") }`);
    expect(revoked.body.data).toEqual({ revokeAccessToken: true });
    // Their last use is forgotten with them: the record holds live tokens only.
    expect((await lastUsed()).size).toBe(0);
    for (const token of [leaked.token, child.token, grandchild]) {
      const refused = await ask(token, '{ me { id } }');
      expect(refused.status).toBe(401);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('invalid_access_token');
    }
    expect((await ask(sibling.token, '{ me { id } }')).body.data).toEqual({
      me: { id: account.user.id },
    });
    const after = await ask(sibling.token, '{ me { accessTokens { id } } }');
    expect(after.body.data!.me.accessTokens).toEqual([{ id: sibling.id }]);
  });

  it('when a user lists their tokens, then each shows when it was last used, to the minute', async () => {
    const account = await buildAccount(stack);
    const used = await buildAccessToken(stack, account.user.id);
    const unused = await buildAccessToken(stack, account.user.id);
    const before = Date.now();
    const listed = await graphql<{
      me: { accessTokens: Array<{ id: string; lastUsedAt: string | null }> };
    }>(
      stack.gateway.graphqlUrl,
      '{ me { accessTokens { id lastUsedAt } } }',
      {},
      { authorization: `Bearer ${used.token}` },
    );
    const byId = new Map(listed.body.data!.me.accessTokens.map((t) => [t.id, t.lastUsedAt]));
    expect(byId.get(unused.id)).toBeNull();
    const lastUsed = new Date(byId.get(used.id)!).getTime();
    expect(lastUsed).toBeGreaterThanOrEqual(before - 1_000);
    expect(lastUsed).toBeLessThanOrEqual(Date.now());
  });

  it('when a token is revoked while another is being made with it, then the new one never works', async () => {
    const account = await buildAccount(stack);
    const parent = await buildAccessToken(stack, account.user.id);
    const credentials = stack.keys.services.credentials;
    const [made] = await Promise.allSettled([
      credentials.createAccessToken(account.user.id, 'racing', parent.id),
      credentials.revokeAccessToken(parent.id),
    ]);
    if (made.status === 'fulfilled') {
      const response = await graphql(
        stack.gateway.graphqlUrl,
        '{ me { id } }',
        {},
        {
          authorization: `Bearer ${made.value.token}`,
        },
      );
      expect(response.status).toBe(401);
    } else {
      expect(made.reason).toMatchObject({ message: 'The access token was revoked' });
    }
  });

  it.each([
    [
      `${QUERY_LIMITS.maxAliases + 1} aliased fields`,
      `{ ${Array.from({ length: QUERY_LIMITS.maxAliases + 1 }, (_, n) => `a${n}: websites { id }`).join(' ')} }`,
      'aliases',
    ],
    [
      `a depth over ${QUERY_LIMITS.maxDepth}`,
      '{ me { memberships { organization { members { user { memberships { organization { members { user { id } } } } } } } } } }',
      'depth',
    ],
  ])(
    'when a dashboard token sends %s, then 400 before anything runs',
    async (_what, query, limit) => {
      const account = await buildAccount(stack);
      const { token } = await buildAccessToken(stack, account.user.id);
      const response = await graphql(
        stack.gateway.graphqlUrl,
        query,
        {},
        {
          authorization: `Bearer ${token}`,
        },
      );
      expect(response.status).toBe(400);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors?.[0]?.message).toMatch(new RegExp(limit, 'i'));
    },
  );
});

describe('gateway in production', () => {
  let stack: Stack;
  const logs = captureLogs();
  beforeAll(async () => {
    stack = await startStack(
      'gateway-prod',
      {
        NODE_ENV: 'production',
        WEBHOOK_WORKERS_ENABLED: 'false',
        WEBHOOK_SECRET_KEY: 'c'.repeat(64),
        LOG_LEVEL: 'info',
      },
      logs.sink,
    );
  });
  afterAll(() => stack.stop());

  it('when introspection is asked for, then it is refused', async () => {
    const response = await graphql(stack.gateway.graphqlUrl, '{ __schema { queryType { name } } }');
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it.each([
    ['an unknown operationName', { query: '{ me { id } }', operationName: 'x' }],
    [
      'two operations and no operationName',
      { query: 'query A { me { id } } query B { me { id } }' },
    ],
  ])(
    'when a document’s operation cannot be resolved (%s), then 400 OPERATION_RESOLUTION_FAILURE, logged below error level and without a stack',
    async (_case, body) => {
      const before = logs.lines.length;
      const response = await postTo<{
        data?: unknown;
        errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
      }>(stack.gateway.graphqlUrl, body, {});
      expect(response.status).toBe(400);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([
        {
          message: expect.stringMatching(/operation/i),
          extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
        },
      ]);
      const logged = logs.lines.slice(before).join('');
      expect(logged).not.toMatch(/"level":"(error|fatal)"/);
      expect(logged).not.toContain('"stack"');
    },
  );

  it.each([
    [
      'a misspelt enum value',
      'mutation { createApiKey(input: { organizationId: "1", name: "x", permissions: [ADMN] }) { key } }',
      {},
      ['ADMIN', 'Permission'],
    ],
    [
      'a misspelt enum value in variables',
      'mutation ($p: [Permission!]) { createApiKey(input: { organizationId: "1", name: "x", permissions: $p }) { key } }',
      { p: ['ADMN'] },
      ['ADMIN', 'CreateApiKeyInput'],
    ],
    ['a misspelt field', '{ me { emial } }', {}, ['email', 'User']],
    ['a field without its selection', '{ me }', {}, ['User', 'me {']],
    ['an unknown type', '{ me { ... on Usr { id } } }', {}, ['User']],
    ['an unknown argument', '{ website(idd: "1") { id } }', {}, ['Query', 'ID!']],
    [
      'a misspelt input field',
      'mutation { createApiKey(input: { organizationId: "1", nme: "x" }) { key } }',
      {},
      ['CreateApiKeyInput', 'name', 'String!'],
    ],
  ])(
    'when a document has %s, then 400 without a suggestion or a schema name the caller did not write',
    async (_case, query, variables, hidden) => {
      const response = await graphql(stack.gateway.graphqlUrl, query, variables);
      expect(response.status).toBe(400);
      const messages = response.body.errors!.map((error) => error.message).join('\n');
      expect(messages).not.toMatch(/did you mean|suggestion/i);
      for (const name of hidden) expect(messages).not.toContain(name);
    },
  );

  it('when a browser opens /graphql, then no explorer is served', async () => {
    const response = await http<string>(stack.gateway.graphqlUrl, {
      headers: { accept: 'text/html' },
    });
    expect(response.headers.get('content-type') ?? '').not.toContain('text/html');
  });
});

describe('gateway on @apollo/gateway’s default data source (the benchmark baseline)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('gateway-defaults', {
      GATEWAY_FAST_FETCH: 'false',
      SUBGRAPH_INLINE_TRACE: 'true',
      WEBHOOK_WORKERS_ENABLED: 'false',
    });
  });
  afterAll(() => stack.stop());

  it('when the default fetcher is configured, then queries still cross subgraphs with the signed identity', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const response = await graphql<{
      me: {
        email: string;
        webhooks: unknown[];
        memberships: Array<{ organization: { websites: Array<{ totalPageviews: number }> } }>;
      };
    }>(
      stack.gateway.graphqlUrl,
      '{ me { email webhooks { id } memberships { organization { websites { totalPageviews } } } } }',
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data?.me).toEqual({
      email: account.user.email,
      webhooks: [],
      memberships: [{ organization: { websites: [{ totalPageviews: 0 }] } }],
    });
  });
});
