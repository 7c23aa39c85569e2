import { Pool } from 'undici';
import { createLogger } from '../../common/platform/logger';
import { startFacade } from '../../rest-facade/src/app';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import { buildAccount, buildApiKey } from '../support/factories';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';

describe('stopping under load (SHUTDOWN_DRAIN_SECONDS)', () => {
  jest.setTimeout(60_000);
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('graceful-drain', { WEBHOOK_WORKERS_ENABLED: 'false' });
  });
  afterAll(() => stack.stop());

  it('when a facade is stopped while kept-alive clients keep calling, then readiness turns 503 first, every request it accepted is answered, and none is reset', async () => {
    const account = await buildAccount(stack);
    const { key } = await buildApiKey(stack, account);
    const facade = await startFacade(
      loadFacadeConfig({ ...stack.env, ...stack.subgraphEnv, SHUTDOWN_DRAIN_SECONDS: '1' }),
      createLogger('rest-facade', 'silent'),
    );
    const pool = new Pool(facade.url, { connections: 10, pipelining: 1 });
    const outcomes = { answered: 0, closingAnswers: 0, resets: 0, refused: 0, other: 0 };
    let stopped = false;
    const client = async () => {
      while (!stopped) {
        try {
          const response = await pool.request({
            path: '/api/external/v1/websites',
            method: 'GET',
            headers: { 'x-api-key': key },
          });
          await response.body.text();
          outcomes.answered += 1;
          if (response.headers.connection === 'close') outcomes.closingAnswers += 1;
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (code === 'ECONNREFUSED') outcomes.refused += 1;
          else if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
            outcomes.resets += 1;
          else outcomes.other += 1;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    };
    const clients = Array.from({ length: 10 }, () => client());
    await waitFor(async () => outcomes.answered >= 50);

    const stopping = facade.stop();
    const readiness = await waitFor(async () => {
      const response = await fetch(`${facade.url}/readyz`).catch(() => null);
      return response?.status === 503 ? response : null;
    });
    expect(readiness.headers.get('connection')).toBe('close');
    expect(await readiness.json()).toMatchObject({ status: 'stopping' });
    await stopping;
    stopped = true;
    await Promise.all(clients);
    await pool.close();

    expect(outcomes.closingAnswers).toBeGreaterThan(0);
    expect(outcomes).toMatchObject({ resets: 0, other: 0 });
  });
});
