import { HttpSender } from '../../subgraphs/webhooks/src/delivery/http-sender';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const signed = { body: '{"id":"evt_1"}', headers: { 'content-type': 'application/json' } };
const sender = (allowLoopback: boolean, timeoutMs = 2_000) =>
  new HttpSender({ requireHttps: false, allowLoopback, timeoutMs, responseBodyLimit: 16 });

describe('HttpSender: one delivery attempt', () => {
  let receiver: WebhookReceiver;
  const senders: HttpSender[] = [];
  const make = (...args: Parameters<typeof sender>) => {
    const created = sender(...args);
    senders.push(created);
    return created;
  };
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.close()));
    await receiver.close();
  });

  it('when a host name resolves to loopback at delivery time, then the socket is never opened', async () => {
    const url = receiver.url.replace('127.0.0.1', 'localhost');
    const outcome = await make(false).send(url, signed);
    expect(outcome).toMatchObject({
      statusCode: null,
      error: 'destination refused: forbidden_address',
    });
    expect(receiver.requests).toHaveLength(0);
  });

  it('when the receiver redirects, then the redirect is not followed and counts as the answer', async () => {
    receiver.respondWith({ status: 302, headers: { location: 'http://169.254.169.254/' } });
    const outcome = await make(true).send(receiver.url, signed);
    expect(outcome.statusCode).toBe(302);
    expect(receiver.requests).toHaveLength(1);
  });

  it('when the receiver answers too slowly, then the attempt ends at the time-out', async () => {
    receiver.respondWith({ status: 200, delayMs: 2_000 });
    const outcome = await make(true, 300).send(receiver.url, signed);
    expect(outcome).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(outcome.durationMs).toBeLessThan(1_500);
  });

  it('when the answer is long, then only the documented number of bytes is kept, and Retry-After is read', async () => {
    receiver.respondWith({ status: 503, body: 'z'.repeat(100), headers: { 'retry-after': '7' } });
    const outcome = await make(true).send(receiver.url, signed);
    expect(outcome).toMatchObject({
      statusCode: 503,
      responseBody: 'z'.repeat(16),
      responseBodyTruncated: true,
      retryAfter: '7',
      error: null,
    });
    expect(receiver.requests[0]!.rawBody.toString()).toBe(signed.body);
  });
});
