/**
 * A webhook receiver on loopback for the suite: records every delivery attempt with whether its
 * signature is valid for the webhook's secret, and answers as told (503 until the fault is over,
 * then 200).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedAttempt {
  eventId: string;
  attempt: number;
  status: number;
  signatureValid: boolean;
  /** What the event is about (`data.key_id` of an api_key event). */
  keyId: string | null;
  at: number;
}

export interface SuiteReceiver {
  url: string;
  attempts: ReceivedAttempt[];
  /** The webhook's signing secret, once it is created. */
  secret: string | null;
  answer: number;
  close(): Promise<void>;
}

function validSignature(secret: string | null, body: Buffer, signature: unknown): boolean {
  if (!secret || typeof signature !== 'string') return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export async function startReceiver(): Promise<SuiteReceiver> {
  const receiver: SuiteReceiver = {
    url: '',
    attempts: [],
    secret: null,
    answer: 503,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let parsed: { id?: string; data?: { key_id?: string } } = {};
      try {
        parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
      } catch {
        // Recorded as it came: an unreadable body has no event id.
      }
      const status = receiver.answer;
      receiver.attempts.push({
        eventId: parsed.id ?? '(none)',
        attempt: Number(req.headers['x-webhook-attempt'] ?? 0),
        status,
        signatureValid: validSignature(receiver.secret, body, req.headers['x-webhook-signature']),
        keyId: parsed.data?.key_id ?? null,
        at: Date.now(),
      });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'busy');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
