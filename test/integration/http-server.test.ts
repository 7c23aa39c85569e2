import { Agent, request } from 'undici';
import { listen } from '../../common/platform/http-server';
import { rawExchange } from '../support/raw-http';

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

describe('listen(): requests Node refuses before any handler runs', () => {
  it.each([
    [
      'a request with headers over the limit',
      `GET / HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
    ['a request that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'BAD_REQUEST'],
  ])(
    'when %s arrives, then a JSON error with a request id comes back, not a bare status line',
    async (_case, bytes, status, code) => {
      const server = await listen((_req, res) => res.end('ok'), 0, '127.0.0.1');
      try {
        const answer = await rawExchange(server.port, bytes);
        expect(answer.head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        expect(answer.head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}(\r\n|$)/);
        expect(answer.head).toContain('Content-Type: application/json');
        expect(answer.body).toEqual({
          errors: [{ message: expect.any(String), extensions: { code } }],
        });
      } finally {
        await server.close();
      }
    },
  );

  it('when the server is given its own error shape, then what Node refuses is answered in it', async () => {
    const server = await listen((_req, res) => res.end('ok'), 0, '127.0.0.1', {
      errorBody: (status, code, message) => ({ status, code, message }),
    });
    try {
      const answer = await rawExchange(server.port, 'GET / HTTP/1.1\r\nExpect: foo\r\n\r\n');
      expect(answer.head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      expect(answer.body).toEqual({
        status: 400,
        code: 'bad_request',
        message: expect.any(String),
      });
    } finally {
      await server.close();
    }
  });
});
