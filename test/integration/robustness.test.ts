import { signIdentity } from '../../common/identity';
import { buildAccount, buildApiKey } from '../support/factories';
import { http } from '../support/http';
import { expectMatchesOpenApi } from '../support/openapi';
import { startStack, type Stack } from '../support/stack';

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
