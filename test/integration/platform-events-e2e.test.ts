import { createHmac } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { EVENT_CATALOGUE } from '../../common/contracts/event-catalogue';
import type { EventType } from '../../common/contracts/platform-events';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { http } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

interface Delivered {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

describe('platform events reach the owner’s webhooks end to end', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    stack = await startStack('events-e2e', {
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
    });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await stack.stop();
  });

  it('HOOK-7 HOOK-8 KEY-8 KEY-9 LIM-4: when a key is created, used up to its quota, regenerated and deleted, then signed events arrive for each', async () => {
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      customLimits: { requestsPerMonth: 5 },
    });
    const { token } = await buildAccessToken(stack, account.user.id);
    const created = await http<{ data: { id: string; secret: string } }>(
      `${stack.facade.url}/v1/cli/mutate/webhooks`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url }),
      },
    );
    expect(created.status).toBe(201);
    const { secret } = created.body.data;

    const { key, apiKey } = await buildApiKey(stack, account);
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await http(`${stack.facade.url}/api/external/v1/usage`, { headers: { 'x-api-key': key } }))
          .status,
      ).toBe(200);
    }
    await stack.keys.services.credentials.regenerateApiKey(apiKey.id);
    await stack.keys.services.credentials.deleteApiKey(apiKey.id);

    const requests = await receiver.waitForRequests(5, 15_000);
    const events = requests.map((r) => JSON.parse(r.rawBody.toString('utf8')) as Delivered);
    const summary = events
      .map((e) =>
        e.type === 'usage.threshold_reached' ? `${e.type}:${String(e.data.percent)}` : e.type,
      )
      .sort();
    expect(summary).toEqual([
      'api_key.created',
      'api_key.deleted',
      'api_key.regenerated',
      'usage.threshold_reached:100',
      'usage.threshold_reached:80',
    ]);
    for (const request of requests) {
      const signature = request.headers['x-webhook-signature'];
      expect(signature).toBe(createHmac('sha256', secret).update(request.rawBody).digest('hex'));
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(5);
    const keyEvents = events.filter((e) => e.type.startsWith('api_key.'));
    for (const event of keyEvents) expect(event.data).toMatchObject({ key_id: apiKey.id });
    // Each event's data is what the catalogue (GET …/webhooks/event-types) says of its type.
    const ajv = addFormats(new Ajv2020({ allErrors: true }));
    for (const event of events) {
      const valid = ajv.validate(EVENT_CATALOGUE[event.type as EventType].schema, event.data);
      expect([event.type, valid, ajv.errors ?? null]).toEqual([event.type, true, null]);
    }
  });
});
