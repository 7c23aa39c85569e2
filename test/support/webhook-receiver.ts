import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received: what a signature is computed over. */
  rawBody: Buffer;
  receivedAt: number;
}

export interface ReceiverAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
}

export type Responder = (request: ReceivedRequest, index: number) => ReceiverAnswer;

export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** How the next requests are answered; `index` counts every request received so far. */
  respondWith(responder: Responder | ReceiverAnswer): void;
  /** Resolves once `count` requests arrived in all; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** The parsed JSON body of request `index`. */
  json<T = Record<string, unknown>>(index: number): T;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1:0 that records raw bodies and headers. Answers 200 by default. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  let responder: Responder = () => ({ status: 200, body: 'ok' });
  const waiters: Array<() => void> = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      const index = requests.length;
      requests.push(received);
      const answer = responder(received, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, answer.delayMs);
        timers.add(timer);
      } else send();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    respondWith(next) {
      responder = typeof next === 'function' ? next : () => next;
    },
    async waitForRequests(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(
            `receiver got ${requests.length} of ${count} requests within ${timeoutMs} ms`,
          );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 100));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return requests.slice(0, count);
    },
    json<T>(index: number) {
      const request = requests[index];
      if (!request) throw new Error(`no request ${index}`);
      return JSON.parse(request.rawBody.toString('utf8')) as T;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
