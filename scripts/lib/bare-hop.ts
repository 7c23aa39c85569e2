/**
 * The least any separate Node HTTP service in front of the gateway costs: it answers every
 * request by sending one fixed persisted operation to the gateway (undici, keep-alive) with the
 * caller's `X-API-Key`, and passing the answer back. No key check, limits, headers or call log.
 * `bench-api` runs it as its own process, next to the facade, to show what a facade that called
 * the gateway service over HTTP would pay for the hop alone (why the facade runs the gateway's
 * engine in process instead).
 *
 * Usage: node dist/scripts/lib/bare-hop.js <port> <gateway graphql url> <request body>
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';

const [port, gatewayUrl, body] = process.argv.slice(2);
if (!port || !gatewayUrl || !body) {
  console.error('usage: bare-hop <port> <gateway graphql url> <request body>');
  process.exit(2);
}
const gateway = new URL(gatewayUrl);
const pool = new Pool(gateway.origin, { connections: 64, pipelining: 1 });

const server = createServer((req, res) => {
  pool
    .request({
      path: gateway.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': String(req.headers['x-api-key'] ?? ''),
      },
      body,
    })
    .then(async (response) => {
      const payload = await response.body.text();
      res.writeHead(response.statusCode, { 'content-type': 'application/json' });
      res.end(payload);
    })
    .catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(error) }));
    });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void pool.close().then(() => process.exit(0));
  server.closeAllConnections();
});
