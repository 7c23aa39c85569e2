import { connect } from 'node:net';

export interface RawAnswer {
  /** The status line and header fields as they were sent. */
  head: string;
  status: number;
  /** The header fields by lower-case name. */
  headers: Record<string, string>;
  /** The body, parsed as JSON. */
  body: unknown;
}

/** The first complete response in `received`, or null while it is still arriving. */
function parseAnswer(received: Buffer): RawAnswer | null {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = received.subarray(0, end).toString('latin1');
  const [statusLine, ...fields] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    headers[field.slice(0, colon).toLowerCase()] = field.slice(colon + 1).trim();
  }
  // Complete means framed: a length to read up to, not a body that ends when the socket does.
  if (headers['content-length'] === undefined)
    throw new Error('the response has no Content-Length');
  const body = received.subarray(end + 4);
  if (body.length < Number(headers['content-length'])) return null;
  return {
    head,
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)?.[1]),
    headers,
    body: JSON.parse(body.toString('utf8')) as unknown,
  };
}

/**
 * Sends `bytes` as they are on a new connection to 127.0.0.1:`port` and reads one response: for
 * requests no HTTP client would send. The response must have a Content-Length and a JSON body.
 */
export async function rawExchange(port: number, bytes: string): Promise<RawAnswer> {
  const socket = connect(port, '127.0.0.1');
  socket.write(bytes);
  let received = Buffer.alloc(0);
  try {
    for await (const chunk of socket) {
      received = Buffer.concat([received, chunk as Buffer]);
      const answer = parseAnswer(received);
      if (answer) return answer;
    }
  } finally {
    socket.destroy();
  }
  throw new Error(`the connection closed before a complete response: ${JSON.stringify(received)}`);
}
