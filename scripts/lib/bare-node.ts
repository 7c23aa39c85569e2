import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the hardware gives for a POST without any of the platform's work: a bare Node HTTP server
 * on loopback that reads the body and answers 202 `{"accepted":true}`. The benches' baseline.
 */
export async function bareNodeServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end('{"accepted":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
