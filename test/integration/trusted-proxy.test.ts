import { createLogger } from '../../common/platform/logger';
import { startFacade, type RunningFacade } from '../../rest-facade/src/app';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { graphql, http } from '../support/http';
import { startStack, type Stack } from '../support/stack';

describe('call log client IP behind a trusted proxy', () => {
  let stack: Stack;
  let behindProxy: RunningFacade;
  beforeAll(async () => {
    stack = await startStack('trusted-proxy', { WEBHOOK_WORKERS_ENABLED: 'false' });
    behindProxy = await startFacade(
      loadFacadeConfig({
        ...stack.env,
        ...stack.subgraphEnv,
        TRUSTED_PROXIES: 'loopback',
      }),
      createLogger('facade-behind-proxy', 'silent'),
    );
  });
  afterAll(async () => {
    await behindProxy.stop();
    await stack.stop();
  });

  it('PLAT-1: when the proxy in front is trusted, then the logged IP is the client’s from X-Forwarded-For; otherwise the socket’s', async () => {
    const account = await buildAccount(stack);
    const { key, apiKey } = await buildApiKey(stack, account);
    const { token } = await buildAccessToken(stack, account.user.id);
    const headers = { 'x-api-key': key, 'x-forwarded-for': '203.0.113.9' };
    expect((await http(`${behindProxy.url}/api/external/v1/usage`, { headers })).status).toBe(200);
    expect((await http(`${stack.facade.url}/api/external/v1/usage`, { headers })).status).toBe(200);
    await behindProxy.deps.callLog.flush();
    await stack.facade.deps.callLog.flush();
    await stack.keys.services.callLogConsumer.drain();
    const response = await graphql<{ apiKey: { calls: { nodes: Array<{ ip: string }> } } }>(
      stack.gateway.graphqlUrl,
      'query ($id: ID!) { apiKey(id: $id) { calls(first: 10) { nodes { ip } } } }',
      { id: apiKey.id },
      { authorization: `Bearer ${token}` },
    );
    const ips = response.body.data!.apiKey.calls.nodes.map((n) => n.ip).sort();
    expect(ips).toHaveLength(2);
    expect(ips).toContain('203.0.113.9');
    expect(ips.filter((ip) => ip !== '203.0.113.9')[0]).toMatch(/127\.0\.0\.1|::1/);
  });
});
