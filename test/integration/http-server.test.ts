import { Agent, request } from 'undici';
import { listen } from '../../common/http-server';

describe('listen(): stopping a server whose callers keep connections alive', () => {
  it('when a request is in flight on a pooled connection as the server stops, then it completes and the caller is told to close the connection', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = await listen(
      (req, res) => {
        if (req.url !== '/slow') return void res.end('ok');
        arrived();
        void released.then(() => res.end('done'));
      },
      0,
      '127.0.0.1',
    );
    const pool = new Agent({ keepAliveTimeout: 30_000, connections: 4 });
    const warm = await request(`${server.url}/`, { dispatcher: pool });
    await warm.body.text();
    expect(warm.headers.connection).toBe('keep-alive');

    const slow = request(`${server.url}/slow`, { dispatcher: pool, method: 'POST', body: '{}' });
    await slowArrived; // in flight on the server when it stops
    const stopped = server.close();
    release();
    const answer = await slow;

    expect(answer.statusCode).toBe(200);
    expect(await answer.body.text()).toBe('done');
    expect(answer.headers.connection).toBe('close');
    await stopped;
    expect(server.server.listening).toBe(false);
    await pool.close();
  });
});
