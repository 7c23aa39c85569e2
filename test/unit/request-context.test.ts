import express from 'express';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentRequestId, requestContext } from '../../common/platform/request-context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** An app that answers with the request id its handler sees after an asynchronous step. */
async function serve(options: { trustIncoming: boolean; expose: boolean }) {
  const app = express();
  app.use(requestContext(options));
  app.get('/', async (_req, res) => {
    await sleep(1);
    res.json({ seen: currentRequestId() ?? null });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const get = async (headers: Record<string, string> = {}) => {
    const response = await fetch(url, { headers });
    const { seen } = (await response.json()) as { seen: string | null };
    return { header: response.headers.get('x-request-id'), seen };
  };
  return { get, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('request context', () => {
  it('when a public service gets a request, then it makes its own id, sends it back and sees it after awaits', async () => {
    const app = await serve({ trustIncoming: false, expose: true });
    try {
      const answer = await app.get({ 'x-request-id': 'chosen-by-the-caller' });
      expect(answer.header).toMatch(UUID);
      expect(answer.seen).toBe(answer.header);
    } finally {
      await app.close();
    }
  });

  it('when an internal service gets a well-formed id, then it keeps it; a malformed one is replaced', async () => {
    const app = await serve({ trustIncoming: true, expose: false });
    try {
      expect(await app.get({ 'x-request-id': 'abc-123_X' })).toEqual({
        header: null,
        seen: 'abc-123_X',
      });
      const replaced = await app.get({ 'x-request-id': 'no spaces or\ttabs' });
      expect(replaced.seen).toMatch(UUID);
    } finally {
      await app.close();
    }
  });

  it('when nothing is being handled, then there is no current id', () => {
    expect(currentRequestId()).toBeUndefined();
  });
});
