import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RequestListener } from 'node:http';
import { GracefulClose } from './graceful-close';
import { graphqlErrorBody, type ErrorBody } from './json-errors';

export interface RunningServer {
  server: http.Server;
  url: string;
  port: number;
  /**
   * Drains first (`drainMs`: /readyz answers 503 while requests are still served), then closes
   * without resetting what it accepted (GracefulClose).
   */
  close(): Promise<void>;
}

const UNPARSABLE: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request headers are too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'payload_too_large', 'The chunk extensions are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request took too long to arrive'],
};
/** A request line of the right form, whose method Node does not know (`FOO / HTTP/1.1`). */
const UNKNOWN_METHOD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) \S+ HTTP\/1\.[01]\r?\n/;

/**
 * Requests Node refuses before any handler runs (headers over its limit, malformed HTTP, a method
 * it does not know, too slow to arrive) still get a JSON error and an X-Request-Id, like every
 * other answer, instead of Node's bare status line. Written to the socket, as Node's own default
 * does: only while no response on this connection has started, and the connection is then
 * destroyed.
 */
function answerUnparsable(
  errorBody: ErrorBody,
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex,
): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const method =
      error.code === 'HPE_INVALID_METHOD'
        ? UNKNOWN_METHOD.exec(error.rawPacket?.toString('latin1') ?? '')?.[1]
        : undefined;
    const [status, code, message] = method
      ? [501, 'not_implemented', `The method ${method} is not supported`]
      : (UNPARSABLE[error.code ?? ''] ?? [400, 'bad_request', 'The request is not valid HTTP/1.1']);
    writeRawAnswer(socket, status, errorBody(status, code, message));
  } else socket.destroy();
}

/**
 * A complete HTTP/1.1 answer written straight to a socket Node no longer parses; the connection is
 * closed once it is sent.
 */
function writeRawAnswer(
  socket: Duplex,
  status: number,
  body: unknown,
  headers: string[] = [],
): void {
  const json = JSON.stringify(body);
  socket.end(
    [
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(json)}`,
      `X-Request-Id: ${randomUUID()}`,
      ...headers,
      'Connection: close',
      '',
      json,
    ].join('\r\n'),
    () => socket.destroy(),
  );
}

/** An error answered by the server itself on a request it parsed, in the server's shape. */
function answerError(
  res: http.ServerResponse,
  body: unknown,
  status: number,
  headers: Record<string, string> = {},
): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'X-Request-Id': randomUUID(),
    ...headers,
  });
  res.end(json);
}

export async function listen(
  handler: RequestListener,
  port: number,
  host: string,
  options: { drainMs?: number; errorBody?: ErrorBody } = {},
): Promise<RunningServer> {
  const errorBody = options.errorBody ?? graphqlErrorBody;
  let draining = false;
  // Node's own answer to a missing Host is an empty 400; this is it in the server's shape.
  const refusedWithoutHost = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    if (req.httpVersion !== '1.1' || req.headers.host !== undefined) return false;
    const body = errorBody(400, 'bad_request', 'HTTP/1.1 requests must carry a Host header');
    answerError(res, body, 400, { Connection: 'close' });
    return true;
  };
  const server = http.createServer(
    { keepAliveTimeout: 65_000, requireHostHeader: false },
    (req, res) => {
      // Balancers see this instance leave; everyone else is still served as before (closing
      // connections now would only make clients open new ones, which the listener's close resets).
      if (draining && req.url === '/readyz')
        return answerError(res, { status: 'stopping', checks: {} }, 503, { Connection: 'close' });
      if (!refusedWithoutHost(req, res)) handler(req, res);
    },
  );
  server.on('clientError', (error, socket) => answerUnparsable(errorBody, error, socket));
  // Without these listeners Node answers an empty 417 and drops CONNECT without a word.
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (refusedWithoutHost(req, res)) return;
    const message = 'Of the Expect header, only "100-continue" is supported';
    answerError(res, errorBody(417, 'expectation_failed', message), 417);
  });
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    const message = `The method ${req.method} is not allowed: this server is not a proxy`;
    // Empty Allow: the target (host:port) is no resource here, so no method is allowed on it.
    writeRawAnswer(socket, 405, errorBody(405, 'method_not_allowed', message), ['Allow: ']);
  });
  const graceful = new GracefulClose(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    port: address.port,
    url: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`,
    async close() {
      if (options.drainMs) {
        draining = true;
        await new Promise((resolve) => setTimeout(resolve, options.drainMs));
      }
      await graceful.close();
    },
  };
}
