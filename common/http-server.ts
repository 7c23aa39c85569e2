import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import { createHttpTerminator } from 'http-terminator';

/** How long in-flight requests may take to finish when a server stops. */
export const GRACE_MS = 5_000;

export interface RunningServer {
  server: http.Server;
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to GRACE_MS), then closes what is left. */
  close(): Promise<void>;
}

export async function listen(
  handler: RequestListener,
  port: number,
  host: string,
): Promise<RunningServer> {
  const server = http.createServer({ keepAliveTimeout: 65_000 }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Stopping, it answers every request still arriving on a kept-alive connection (callers such as
  // the facade's connection pool) with `Connection: close`, closes idle connections at once, and
  // cuts what is still open after the grace period; server.close() alone would keep serving
  // pooled connections and then drop their requests mid-way.
  const terminator = createHttpTerminator({ server, gracefulTerminationTimeout: GRACE_MS });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    port: address.port,
    url: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`,
    close: () => terminator.terminate(),
  };
}
