import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
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

const UNPARSABLE: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'headers_too_large',
    'The request headers are too large',
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    413,
    'Payload Too Large',
    'payload_too_large',
    'The chunk extensions are too large',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'request_timeout',
    'The request took too long to arrive',
  ],
};

/**
 * Requests Node refuses before any handler runs (headers over its limit, malformed HTTP, too slow
 * to arrive) still get the JSON error envelope and an X-Request-Id, like every other answer,
 * instead of Node's bare status line. Written to the socket, as Node's own default does: only
 * while no response on this connection has started, and the connection is then destroyed.
 */
function answerUnparsable(error: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const [status, reason, code, message] = UNPARSABLE[error.code ?? ''] ?? [
      400,
      'Bad Request',
      'bad_request',
      'The request is not valid HTTP/1.1',
    ];
    const body = JSON.stringify({
      success: false,
      error: { code, message, timestamp: new Date().toISOString() },
    });
    socket.write(
      [
        `HTTP/1.1 ${status} ${reason}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${randomUUID()}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy();
}

export async function listen(
  handler: RequestListener,
  port: number,
  host: string,
): Promise<RunningServer> {
  const server = http.createServer({ keepAliveTimeout: 65_000 }, handler);
  server.on('clientError', answerUnparsable);
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
