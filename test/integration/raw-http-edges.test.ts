import { rawExchange } from '../support/raw-http';
import { startStack, type Stack } from '../support/stack';

/**
 * Requests Node or Express would answer on their own (an empty status line, a closed connection,
 * an HTML page), sent as raw bytes because no HTTP client would send most of them. Every service
 * answers each with a complete HTTP response, a JSON error in its own shape and an X-Request-Id.
 */

const SERVICES = ['facade', 'gateway', 'analytics', 'keys', 'webhooks'] as const;
type Service = (typeof SERVICES)[number];

/** The facade speaks the External API's envelope; the gateway and subgraphs GraphQL's errors. */
function expectErrorBody(service: Service, body: unknown, code: string): void {
  if (service === 'facade')
    expect(body).toEqual({
      success: false,
      error: { code, message: expect.any(String), timestamp: expect.any(String) },
    });
  else
    expect(body).toEqual({
      errors: [{ message: expect.any(String), extensions: { code: code.toUpperCase() } }],
    });
}

/** What is sent, the status and code that must come back, and whether the server then hangs up. */
const CASES: Array<[string, string, number, string, boolean]> = [
  ['an HTTP/1.1 request has no Host header', 'GET / HTTP/1.1\r\n\r\n', 400, 'bad_request', true],
  [
    'the request expects something other than 100-continue',
    'GET / HTTP/1.1\r\nHost: h\r\nExpect: foo\r\n\r\n',
    417,
    'expectation_failed',
    false,
  ],
  [
    'a client asks for a tunnel (CONNECT)',
    'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    405,
    'method_not_allowed',
    true,
  ],
  ['the request line is garbage', 'HELLO THERE\r\n\r\n', 400, 'bad_request', true],
  [
    'the method is one HTTP parsers do not know (FOO)',
    'FOO / HTTP/1.1\r\nHost: h\r\n\r\n',
    501,
    'not_implemented',
    true,
  ],
  [
    'a JSON client asks for an unknown path',
    'GET /no/such/path HTTP/1.1\r\nHost: h\r\nAccept: application/json\r\n\r\n',
    404,
    'not_found',
    false,
  ],
  [
    'a method no route takes arrives (PROPFIND)',
    'PROPFIND /no/such/path HTTP/1.1\r\nHost: h\r\nAccept: application/json\r\n\r\n',
    404,
    'not_found',
    false,
  ],
];

describe('requests Node or Express would answer on their own', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('raw-http-edges', { WEBHOOK_WORKERS_ENABLED: 'false' });
  });
  afterAll(() => stack.stop());

  describe.each(SERVICES)('%s', (service) => {
    it.each(CASES)(
      'when %s, then a complete JSON error in its own shape comes back with a request id',
      async (_case, bytes, status, code, closes) => {
        const answer = await rawExchange(Number(new URL(stack[service].url).port), bytes);

        expect(answer.status).toBe(status);
        expect(answer.headers['content-type']).toContain('application/json');
        expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expectErrorBody(service, answer.body, code);
        if (closes) expect(answer.headers.connection).toBe('close');
      },
    );
  });
});
