import { signIdentity } from '../../common/contracts/identity';
import { QUERY_LIMITS } from '../../gateway/src/query-limits';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { http } from '../support/http';
import { expectMatchesOpenApi } from '../support/openapi';
import { captureLogs } from '../support/log-capture';
import { startStack, type Stack } from '../support/stack';
import { startTcpProxy } from '../support/tcp-proxy';
import { startFacade } from '../../rest-facade/src/app';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import { createLogger } from '../../common/platform/logger';

describe('bad input never gets a 500 or a stack trace', () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    stack = await startStack('robustness', { WEBHOOK_WORKERS_ENABLED: 'false' });
    const account = await buildAccount(stack);
    key = (await buildApiKey(stack, account)).key;
  });
  afterAll(() => stack.stop());

  it.each(['/websites/%E0%A4%A', '/analytics/%ZZ', '/analytics/%ZZ/visitors'])(
    'DATA-6: when the path %s is not valid percent-encoding, then 400 invalid_parameters',
    async (path) => {
      const url = `${stack.facade.url}/api/external/v1${path}`;
      const response = await http<{ success: boolean; error: { code: string } }>(url, {
        headers: { 'x-api-key': key },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_parameters');
      expectMatchesOpenApi('GET', url, response);
    },
  );

  it('when the live and webhook paths are badly encoded, then 400 too', async () => {
    expect((await http(`${stack.facade.url}/live/%E0%A4%A`)).status).toBe(400);
    const hook = await http(`${stack.facade.url}/v1/cli/mutate/webhooks/%E0%A4%A/test`, {
      method: 'POST',
      headers: { authorization: `Bearer wat_${'a'.repeat(43)}` },
    });
    expect(hook.status).toBe(400);
    expect((hook.body as { error: { code: string } }).error.code).toBe('invalid_parameters');
  });

  it.each([
    ['a body that is not JSON', '{bad json', 'The request body is not valid JSON'],
    ['a query that is not a string', '{"query": 5}', 'GraphQL queries must be strings.'],
  ])(
    'when the gateway receives %s, then a JSON 400 with a GraphQL error and no stack',
    async (_case, body, message) => {
      const response = await http<{
        errors: Array<{ message: string; extensions: { code: string } }>;
      }>(stack.gateway.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(response.body.errors[0]).toEqual({ message, extensions: { code: 'BAD_REQUEST' } });
      expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(js|ts):\d+/);
    },
  );

  it('when a subgraph receives a body that is not JSON with a valid signature, then a JSON 400', async () => {
    const response = await http<{ errors: Array<{ extensions: { code: string } }> }>(
      stack.keys.graphqlUrl,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signIdentity(
            stack.env.INTERNAL_SECRET!,
            { kind: 'anonymous' },
            { audience: 'keys', request: undefined },
          ),
        },
        body: '{nope',
      },
    );
    expect(response.status).toBe(400);
    expect(response.body.errors[0]!.extensions.code).toBe('BAD_REQUEST');
  });
});

describe('the gateway refuses GraphQL documents it cannot run with a 400, not a 500', () => {
  let stack: Stack;
  let token: string;
  const { lines: logLines, sink } = captureLogs();
  beforeAll(async () => {
    stack = await startStack(
      'robustness-gql',
      { WEBHOOK_WORKERS_ENABLED: 'false', LOG_LEVEL: 'error' },
      sink,
    );
    token = (await buildAccessToken(stack, (await buildAccount(stack)).user.id)).token;
  });
  afterAll(() => stack.stop());

  type Errors = { errors: Array<{ message: string; extensions: { code: string } }> };
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    http<Errors>(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it.each([
    ['an unterminated selection', '{ me { id '],
    ['a stray character', '%ZZ'],
    ['only a comment', '# nothing'],
    [`more than ${QUERY_LIMITS.maxTokens} tokens`, `{ ${'me { id } '.repeat(300)}}`],
  ])('when a document has %s, then 400 GRAPHQL_PARSE_FAILED', async (_case, query) => {
    const anonymous: Record<string, string> = {};
    for (const headers of [anonymous, { authorization: `Bearer ${token}` }]) {
      const response = await post({ query }, headers);
      expect(response.status).toBe(400);
      expect(response.body.errors[0]!.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
      expect(response.body.errors[0]!.message).toMatch(/^Syntax Error/);
    }
    const viaGet = await http<Errors>(
      `${stack.gateway.graphqlUrl}?query=${encodeURIComponent(query)}`,
      { headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': '1' } },
    );
    expect(viaGet.status).toBe(400);
    expect(viaGet.body.errors[0]!.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(logLines.join('')).not.toContain('"level":"error"');
  });

  it('when a persisted query names a version other than 1, then 400 with that message, not logged as a failure', async () => {
    const response = await post({
      extensions: { persistedQuery: { version: 2, sha256Hash: 'abc' } },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toEqual({
      message: 'Unsupported persisted query version',
      extensions: { code: 'BAD_REQUEST', httpStatus: 400 },
    });
    expect(logLines.join('')).not.toContain('"level":"error"');
  });
});

describe('an instance behind the facade stopping', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('instance-stop', { WEBHOOK_WORKERS_ENABLED: 'false' });
  });
  afterAll(() => stack.stop());

  it('when a subgraph drops the connection a read was just sent on, then the facade’s engine sends it once more and the call answers 200', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    const proxy = await startTcpProxy(Number(new URL(stack.keys.graphqlUrl).port));
    const keysThroughProxy = new URL(stack.keys.graphqlUrl);
    keysThroughProxy.port = String(proxy.port);
    const facade = await startFacade(
      loadFacadeConfig({
        ...stack.env,
        ...stack.subgraphEnv,
        KEYS_URL: keysThroughProxy.toString(),
      }),
      createLogger('rest-facade', 'silent'),
    );
    const usage = () =>
      http(`${facade.url}/api/external/v1/usage`, { headers: { 'x-api-key': key } });
    try {
      expect((await usage()).status).toBe(200);
      expect((await proxy.dropUnder(usage)).status).toBe(200);
    } finally {
      await facade.stop();
      await proxy.close().catch(() => undefined);
    }
  });
});
