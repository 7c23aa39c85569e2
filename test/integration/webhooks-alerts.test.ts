import { createHmac } from 'node:crypto';
import type { CollectedEvent } from '../../common/contracts/collected-event';
import { platformEventStream } from '../../common/contracts/platform-events';
import { websiteEventStream } from '../../common/contracts/website-events';
import { createRedis } from '../../common/platform/redis';
import { buildAccessToken, buildAccount } from '../support/factories';
import { http } from '../support/http';
import { buildPageview, ingestEvents } from '../support/ingest';
import { expectMatchesOpenApi } from '../support/openapi';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEBHOOKS = '/v1/cli/mutate/webhooks';

type Delivery = {
  id: string;
  type: string;
  webhook_id: string;
  data: Record<string, unknown>;
};

describe('analytics alerts to webhooks: traffic.spike, traffic.drop, report.daily', () => {
  let stack: Stack;
  let redis: ReturnType<typeof createRedis>;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    // The hourly look is made by the test, at a moment it chooses.
    stack = await startStack('webhooks-alerts', {
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
      ANALYTICS_ALERTS_ENABLED: 'false',
    });
    redis = createRedis(stack.env.REDIS_URL!);
  });
  afterAll(async () => {
    redis.disconnect();
    for (const receiver of receivers) await receiver.close();
    await stack.stop();
  });

  async function receiver() {
    const started = await startWebhookReceiver();
    receivers.push(started);
    return started;
  }

  async function send<T>(method: string, path: string, token: string, body?: unknown) {
    const url = `${stack.facade.url}${WEBHOOKS}${path}`;
    const response = await http<{ data: T; error?: { code: string; message: string } }>(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expectMatchesOpenApi(method, url, response);
    return response;
  }

  async function webhook(token: string, url: string, body: Record<string, unknown> = {}) {
    const created = await send<{ id: string; secret: string }>('POST', '', token, { url, ...body });
    expect(created.status).toBe(201);
    return created.body.data;
  }

  /** `count` page views from distinct visitors in the hour starting at `hour`. */
  const visits = (websiteId: string, hour: number, count: number, path = '/') =>
    Array.from({ length: count }, (_, i) =>
      buildPageview(websiteId, {
        ts: hour + i * 60_000,
        path,
        visitorId: `v-${websiteId}-${hour}-${i}`,
        source: i % 2 ? 'news.example' : 'direct',
      }),
    );

  it('when an hour has three times its baseline on one website and a quarter on another, then each member’s webhooks get the findings their settings accept, once, signed; a report of yesterday goes out at its hour; others get nothing', async () => {
    const account = await buildAccount(stack, { websites: 2 });
    const spiking = account.websites[0]!;
    const dropping = account.websites[1]!;
    const member = await stack.keys.services.accounts.createUser(
      `member-${Date.now()}@example.test`,
    );
    await stack.keys.services.accounts.addMember(account.organization.id, member.id, 'member');
    const stranger = await buildAccount(stack);
    const tokenOf = async (userId: string) => (await buildAccessToken(stack, userId)).token;
    const ownerToken = await tokenOf(account.user.id);
    const memberToken = await tokenOf(member.id);
    const strangerToken = await tokenOf(stranger.user.id);

    // Three days ago at 12:05 UTC: the hour 11:00–12:00 is looked at, against the same hour one
    // and two weeks before; the day before is reported.
    const now = Math.floor(Date.now() / DAY) * DAY - 3 * DAY + 12 * HOUR + 5 * 60_000;
    const hour = now - 5 * 60_000 - HOUR;
    const reported = hour - DAY;
    await ingestEvents(stack, [
      ...visits(spiking.id, hour - 7 * DAY, 10),
      ...visits(spiking.id, hour - 14 * DAY, 10),
      ...visits(spiking.id, hour, 30),
      ...visits(dropping.id, hour - 7 * DAY, 20),
      ...visits(dropping.id, hour, 5),
      ...visits(spiking.id, reported, 4, '/pricing'),
      ...visits(spiking.id, reported + HOUR, 2, '/docs'),
    ]);

    const [all, quiet, members, strangers] = await Promise.all([
      receiver(),
      receiver(),
      receiver(),
      receiver(),
    ]);
    const everything = await webhook(ownerToken, all.url, { alerts: { report_hour: 0 } });
    const onlyBigDropsOfOne = await webhook(ownerToken, quiet.url, {
      event_types: ['traffic.spike', 'traffic.drop'],
      alerts: { website_ids: [dropping.id], spike_ratio: 5 },
    });
    const memberSpikes = await webhook(memberToken, members.url, {
      event_types: ['traffic.spike'],
    });
    await webhook(strangerToken, strangers.url);

    const { alerts } = stack.analytics.services;
    alerts.clock = () => now;
    const found = await alerts.check();
    expect(found.map((event) => event.type).sort()).toEqual([
      'report.daily',
      'traffic.drop',
      'traffic.spike',
    ]);
    // Looked at again (another instance, or this one later): nothing new.
    alerts.clock = () => now + 60_000;
    expect(await alerts.check()).toEqual([]);

    await all.waitForRequests(3);
    await quiet.waitForRequests(1);
    await members.waitForRequests(1);
    await waitFor(
      async () => (await redis.xlen(websiteEventStream(stack.env.REDIS_KEY_PREFIX!))) === 0,
    );
    await waitFor(
      async () => (await redis.xlen(platformEventStream(stack.env.REDIS_KEY_PREFIX!))) === 0,
    );
    const delivered = (r: WebhookReceiver) =>
      r.requests.map((_, i) => r.json<Delivery>(i)).sort((a, b) => a.type.localeCompare(b.type));

    const got = delivered(all);
    expect(got.map((d) => [d.type, d.data.website_id])).toEqual([
      ['report.daily', spiking.id],
      ['traffic.drop', dropping.id],
      ['traffic.spike', spiking.id],
    ]);
    expect(got[2]!.data).toEqual({
      website_id: spiking.id,
      website_name: spiking.name,
      domain: spiking.domain,
      hour_start: new Date(hour).toISOString(),
      visitors: 30,
      baseline: 10,
      ratio: 3,
      weeks: 2,
    });
    expect(got[1]!.data).toMatchObject({ visitors: 5, baseline: 20, ratio: 0.25, weeks: 1 });
    expect(got[0]!.data).toEqual({
      website_id: spiking.id,
      website_name: spiking.name,
      domain: spiking.domain,
      day: new Date(reported).toISOString().slice(0, 10),
      visitors: 6,
      pageviews: 6,
      sessions: 6,
      bounce_rate: 1,
      top_pages: [
        { name: '/pricing', visitors: 4 },
        { name: '/docs', visitors: 2 },
      ],
      top_sources: [
        { name: 'direct', visitors: 3 },
        { name: 'news.example', visitors: 3 },
      ],
    });
    for (const request of all.requests)
      expect(request.headers['x-webhook-signature']).toBe(
        createHmac('sha256', everything.secret).update(request.rawBody).digest('hex'),
      );
    expect(all.requests).toHaveLength(3);
    expect(delivered(quiet).map((d) => [d.type, d.webhook_id])).toEqual([
      ['traffic.drop', onlyBigDropsOfOne.id],
    ]);
    expect(delivered(members).map((d) => [d.type, d.webhook_id, d.data.website_id])).toEqual([
      ['traffic.spike', memberSpikes.id, spiking.id],
    ]);
    expect(strangers.requests).toHaveLength(0);
  });

  it('when a goal converts for the first time today, then every subscribed webhook is told; past a multiple of its goal_every, only the webhooks that ask for it', async () => {
    const account = await buildAccount(stack);
    const site = account.websites[0]!;
    const { token } = await buildAccessToken(stack, account.user.id);
    // Creating the goal puts it in the mirror the goal alerts read.
    await stack.keys.services.goals.create(site.id, { kind: 'event', eventName: 'Signup' });
    const [firstOnly, everyThird] = [await receiver(), await receiver()];
    const first = await webhook(token, firstOnly.url, { event_types: ['goal.reached'] });
    const third = await webhook(token, everyThird.url, {
      event_types: ['goal.reached'],
      alerts: { goal_every: 3 },
    });
    const signups = (from: number, count: number): CollectedEvent[] =>
      Array.from({ length: count }, (_, i) => {
        const {
          referrer: _r,
          source: _s,
          ...visit
        } = buildPageview(site.id, {
          visitorId: `signup-${site.id}-${from + i}`,
        }) as Extract<CollectedEvent, { type: 'pageview' }>;
        return { ...visit, type: 'event', name: 'Signup', props: null };
      });
    const { goalAlerts } = stack.analytics.services;

    await ingestEvents(stack, signups(0, 2));
    expect((await goalAlerts.check()).map((e) => e.data)).toEqual([
      expect.objectContaining({ website_id: site.id, goal: 'Signup', conversions: 2, previous: 0 }),
    ]);
    await firstOnly.waitForRequests(1);
    await everyThird.waitForRequests(1);
    await ingestEvents(stack, signups(2, 2));
    expect((await goalAlerts.check()).map((e) => e.data)).toEqual([
      expect.objectContaining({ goal: 'Signup', conversions: 4, previous: 2 }),
    ]);
    expect(await goalAlerts.check()).toEqual([]);
    await everyThird.waitForRequests(2);
    await waitFor(
      async () => (await redis.xlen(platformEventStream(stack.env.REDIS_KEY_PREFIX!))) === 0,
    );

    expect(firstOnly.requests.map((_, i) => firstOnly.json<Delivery>(i).data)).toEqual([
      {
        website_id: site.id,
        website_name: site.name,
        domain: site.domain,
        goal: 'Signup',
        day: new Date().toISOString().slice(0, 10),
        conversions: 2,
        previous: 0,
      },
    ]);
    expect(firstOnly.json<Delivery>(0).webhook_id).toBe(first.id);
    expect(
      everyThird.requests.map((_, i) => {
        const delivery = everyThird.json<Delivery>(i);
        return [delivery.webhook_id, delivery.data.conversions];
      }),
    ).toEqual([
      [third.id, 2],
      [third.id, 4],
    ]);
  });

  it('when alert settings are changed, then the webhook shows them; out of bounds they are refused with 400 and nothing changes', async () => {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    const target = await receiver();
    const created = await webhook(token, target.url);
    const path = `/${created.id}/alerts`;

    const changed = await send<{ alerts: unknown }>('POST', path, token, {
      website_ids: [account.websites[0]!.id],
      spike_ratio: 3,
      report_hour: 23,
    });
    expect(changed.status).toBe(200);
    const expected = {
      website_ids: [account.websites[0]!.id],
      spike_ratio: 3,
      drop_ratio: 0.5,
      report_hour: 23,
      goal_every: null,
    };
    expect(changed.body.data.alerts).toEqual(expected);

    for (const body of [
      { spike_ratio: 1.2 },
      { drop_ratio: 0.9 },
      { report_hour: 24 },
      { goal_every: 0 },
      { website_ids: ['nope'] },
      { every: 1 },
    ]) {
      const refused = await send('POST', path, token, body);
      expect([JSON.stringify(body), refused.status, refused.body.error?.code]).toEqual([
        JSON.stringify(body),
        400,
        'invalid_parameters',
      ]);
    }
    const list = await send<{ webhooks: Array<{ id: string; alerts: unknown }> }>('GET', '', token);
    expect(list.body.data.webhooks.find((w) => w.id === created.id)?.alerts).toEqual(expected);
    const other = await buildAccount(stack);
    const { token: otherToken } = await buildAccessToken(stack, other.user.id);
    expect((await send('POST', path, otherToken, { spike_ratio: 3 })).status).toBe(404);
  });
});
