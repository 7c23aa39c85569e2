import { createServer } from 'node:net';
import { createLogger } from '../../common/platform/logger';
import { startFacade, type RunningFacade } from '../../rest-facade/src/app';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import { callApi } from '../support/api-client';
import { buildAccount, buildApiKey } from '../support/factories';
import { http } from '../support/http';
import { expectMatchesOpenApi } from '../support/openapi';
import { startStack, type Stack } from '../support/stack';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A loopback port nothing listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The log lines (pino JSON) carrying the response's request id, once that id is checked. */
function logLinesOf(response: { headers: Headers }, lines: string[]): Record<string, unknown>[] {
  const id = response.headers.get('x-request-id');
  expect(id).toMatch(UUID);
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.requestId === id);
}

describe('request ids', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('request-id', { WEBHOOK_WORKERS_ENABLED: 'false' });
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('when the facade answers (200, 400, 401, 404, 405), then each response has its own X-Request-Id', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    const responses = [
      await callApi(stack, 'GET', '/usage', { key }),
      await callApi(stack, 'GET', '/usage', { key }),
      await callApi(stack, 'GET', '/usage?verbose=1', { key }),
      await callApi(stack, 'GET', '/usage'),
      await callApi(stack, 'GET', '/websites/000000000000000000000000', { key }),
      await callApi(stack, 'DELETE', '/usage', { key }),
      await http(`${stack.facade.url}/no/such/path`),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 400, 401, 404, 405, 404]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  /**
   * Runs `check` against a facade of its own whose `subgraph` URL points at a closed port; `lines`
   * collects its log lines (its own and its engine's).
   */
  async function withSubgraphUnreachable(
    subgraph: 'keys' | 'analytics',
    check: (facade: RunningFacade, lines: string[]) => Promise<void>,
  ): Promise<void> {
    const lines: string[] = [];
    const sink = { write: (line: string) => void lines.push(line) };
    const facade = await startFacade(
      loadFacadeConfig({
        ...stack.env,
        ...stack.subgraphEnv,
        [subgraph === 'keys' ? 'KEYS_URL' : 'ANALYTICS_URL']:
          `http://127.0.0.1:${await closedPort()}/graphql`,
      }),
      createLogger(`facade-without-${subgraph}`, 'warn', sink),
    );
    try {
      await check(facade, lines);
    } finally {
      await facade.stop();
    }
  }

  it('when the keys subgraph cannot be reached, then 503 service_unavailable, and the facade’s log lines (its own and its engine’s) carry its request id and not the key', async () => {
    await withSubgraphUnreachable('keys', async (facade, lines) => {
      const key = `svc_${'B'.repeat(43)}`;
      const response = await http<Record<string, unknown>>(`${facade.url}/api/external/v1/usage`, {
        headers: { 'x-api-key': key },
      });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        success: false,
        error: {
          code: 'service_unavailable',
          message: 'The service is temporarily unavailable; retry shortly',
          timestamp: expect.any(String),
        },
      });
      const logged = logLinesOf(response, lines);
      expect(logged.map((entry) => [entry.service, entry.msg]).sort()).toEqual([
        ['facade-without-keys', 'The keys service is unavailable; retry shortly'],
        ['facade-without-keys', 'upstream unavailable'],
      ]);
      expect(lines.join('\n')).not.toContain(key);
    });
  });

  it('when the analytics subgraph cannot be reached during an operation, then 503 service_unavailable with the usage headers, logged as such', async () => {
    await withSubgraphUnreachable('analytics', async (facade, lines) => {
      const account = await buildAccount(stack);
      const { key } = await buildApiKey(stack, account);
      const url = `${facade.url}/api/external/v1/analytics/${account.websites[0]!.id}`;
      const response = await http<{ error: { code: string } }>(url, {
        headers: { 'x-api-key': key },
      });
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('service_unavailable');
      // Counted, then given back: the failure is ours.
      expect(response.headers.get('x-usage-monthly')).toBe('0');
      expectMatchesOpenApi('GET', url, response);
      const logged = logLinesOf(response, lines);
      expect(logged.map((entry) => [entry.service, entry.msg]).sort()).toEqual([
        ['facade-without-analytics', 'The analytics service is unavailable; retry shortly'],
        ['facade-without-analytics', 'upstream unavailable'],
      ]);
    });
  });
});
