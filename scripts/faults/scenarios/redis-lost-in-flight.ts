/**
 * Redis loses its data while the pipelines are held still, so that what they carry is in flight:
 * page views accepted and not yet applied, calls answered and not yet logged, webhook attempts
 * due or in retry and not yet delivered. The ingestion and the call log stand by behind a lease
 * the suite holds (a consumer that hangs holding it), the delivery queue is paused, and the
 * receiver answers 503 until Redis is back; then Redis is killed and started empty (`times`
 * times, the pipelines held again in between). Nothing accepted may be lost: every accepted page
 * view counted once, every answered call logged once, every delivery delivered once with a valid
 * signature and its original event id, and the month and the key's total go on from where they
 * were.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Outcome } from '../load';
import { holdPipelines } from '../pipelines';
import { startReceiver, type SuiteReceiver } from '../receiver';
import {
  clock,
  LoadSession,
  recordedFigures,
  recoveryFigures,
  tallyFigures,
  type Figures,
  type Scenario,
  type ScenarioContext,
} from '../session';
import { tally } from '../stats';
import {
  countsGoOn,
  everyCallLogged,
  everyDeliveryDelivered,
  everyEventCounted,
  no5xxButServiceUnavailable,
  noResets,
  pipelinesFlowing,
} from '../targets';
import { KEYED_KINDS } from '../traffic';
import { usedQuota } from '../checks';

/** How long the load runs with the pipelines held before Redis goes (and between two losses). */
const HELD_MS = 10_000;
/** Load after the (last) restart. */
const LOAD_AFTER_MS = 10_000;
/** Keys made (each an `api_key.created` event) before and after the delivery queue is paused. */
const EVENTS_IN_RETRY = 4;
const EVENTS_WAITING = 4;
const DELIVERED_WITHIN_MS = 90_000;

interface Usage {
  monthly: number;
  total: number;
}

/** One call with the scenario's key: its X-Usage-Monthly and X-Usage-Total. */
async function usageOf(facadeUrl: string, key: string): Promise<Usage> {
  const response = await fetch(`${facadeUrl}/api/external/v1/usage`, {
    headers: { 'x-api-key': key },
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  const monthly = response.headers.get('x-usage-monthly');
  const total = response.headers.get('x-usage-total');
  if (response.status !== 200 || monthly === null || total === null)
    throw new Error(`GET /usage answered ${response.status} without the usage headers`);
  return { monthly: Number(monthly), total: Number(total) };
}

async function graphql(context: ScenarioContext, query: string, variables: object) {
  const response = await fetch(`${context.stack.gatewayUrl}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${context.account.token}`,
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown[] };
  if (!response.ok || body.errors) throw new Error(`GraphQL ${response.status}`);
  return body.data;
}

/** Makes `count` keys of the account's organization: each publishes `api_key.created`. */
async function makeKeys(context: ScenarioContext, count: number): Promise<void> {
  for (let n = 0; n < count; n += 1)
    await graphql(
      context,
      'mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { id } } }',
      { input: { organizationId: context.account.organizationId, name: `in flight ${n}` } },
    );
}

/** A webhook of the account's owner to `receiver`; its secret goes to the receiver. */
async function createWebhook(context: ScenarioContext, receiver: SuiteReceiver): Promise<string> {
  const response = await fetch(`${context.stack.facadeUrl}/v1/cli/mutate/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${context.account.token}`,
    },
    body: JSON.stringify({ url: receiver.url, event_types: ['api_key.created'] }),
  });
  const body = (await response.json()) as { data?: { id: string; secret: string } };
  if (response.status !== 201 || !body.data) throw new Error(`webhook: ${response.status}`);
  receiver.secret = body.data.secret;
  return body.data.id;
}

async function deleteWebhook(context: ScenarioContext, id: string): Promise<void> {
  await fetch(`${context.stack.facadeUrl}/v1/cli/mutate/webhooks/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${context.account.token}` },
  }).catch(() => undefined);
}

/** Waits until `count` attempts were made, polling the receiver's record. */
async function attemptsMade(receiver: SuiteReceiver, count: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (receiver.attempts.length < count && Date.now() < deadline) await sleep(100);
}

/** Waits until every event of the receiver's record got a 2xx, or the time is up. */
async function everyEventAnswered(receiver: SuiteReceiver, events: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const delivered = () =>
    new Set(receiver.attempts.filter((a) => a.status === 200).map((a) => a.eventId)).size;
  while (delivered() < events && Date.now() < deadline) await sleep(250);
}

export function redisLostInFlight(name: string, times: 1 | 2): Scenario {
  return {
    name,
    async run(context) {
      const { stack, reader, say } = context;
      const redisUrl = `redis://127.0.0.1:${stack.redis.port}`;
      const receiver = await startReceiver();
      let webhookId: string | null = null;
      let first: Usage | null = null;
      try {
        const session = await LoadSession.begin(context, name, undefined, async (fixture) => {
          first = await usageOf(stack.facadeUrl, fixture.key);
        });
        const probeBefore = reader.probeQuotaRequests;
        webhookId = await createWebhook(context, receiver);
        await makeKeys(context, EVENTS_IN_RETRY);
        // Their first attempts fail (503): retries are scheduled.
        await attemptsMade(receiver, EVENTS_IN_RETRY, 30_000);
        const faults: number[] = [];
        for (let round = 1; round <= times; round += 1) {
          await holdPipelines(redisUrl, stack.redisKeyPrefix);
          if (round === 1) await makeKeys(context, EVENTS_WAITING);
          await sleep(HELD_MS);
          const faultAt = Date.now();
          await stack.redis.crash();
          await stack.redis.restart();
          faults.push(faultAt);
          say(
            `held pipelines, Redis killed at ${clock(faultAt)}, back empty at ${clock(Date.now())}`,
          );
        }
        const restoredAt = Date.now();
        receiver.answer = 200;
        session.watchPipelines(restoredAt);
        await sleep(LOAD_AFTER_MS);
        const outcomes = await session.end();
        const recorded = await session.recorded(outcomes, faults[0]!);
        const events = EVENTS_IN_RETRY + EVENTS_WAITING;
        await everyEventAnswered(receiver, events, DELIVERED_WITHIN_MS);
        const last = await usageOf(stack.facadeUrl, session.fixture.key);
        const t = tally(outcomes);
        const counts = countFigures(
          outcomes,
          first!,
          last,
          reader.probeQuotaRequests - probeBefore,
        );
        const figures: Figures = {
          ...tallyFigures(t),
          ...recordedFigures(recorded),
          redis_losses: times,
          events_accepted_before_last_loss: outcomes.filter(
            (o) => o.kind === 'collect' && o.accepted === true && o.endedAt < faults.at(-1)!,
          ).length,
          deliveries_due: events,
          delivery_attempts: receiver.attempts.length,
          ...counts.figures,
          ...recoveryFigures(outcomes, faults[0]!, restoredAt),
        };
        return {
          figures,
          targets: [
            noResets(t),
            no5xxButServiceUnavailable(t),
            everyCallLogged(recorded.calls),
            everyEventCounted(recorded.events),
            pipelinesFlowing(recorded.flowing),
            everyDeliveryDelivered(receiver.attempts, events),
            countsGoOn(counts),
          ],
        };
      } finally {
        if (webhookId) await deleteWebhook(context, webhookId);
        await receiver.close();
      }
    },
  };
}

export interface CountCheck {
  figures: Figures;
  /** What the month and the key's total moved by, against the calls that counted in them. */
  monthlyMoved: number;
  monthlyCalls: number;
  totalMoved: number;
  totalCalls: number;
  /** Keyed calls without an answer (a time-out): the server may or may not have counted them. */
  unanswered: number;
}

/**
 * The scenario key's first call (`first`) and its last (`last`) bracket everything: the month
 * moved by the load's calls that used a request of the quota, the probe key's reads that did (the
 * same organization), and the last call itself; the key's total by every answered call of the load
 * and the last call.
 */
function countFigures(
  outcomes: readonly Outcome[],
  first: Usage,
  last: Usage,
  probeQuotaRequests: number,
): CountCheck {
  const keyed = outcomes.filter((o) => KEYED_KINDS.includes(o.kind));
  const answered = keyed.filter((o) => o.ending === 'answered');
  const quota = answered.filter((o) => usedQuota(o.status!, o.usageMonthly)).length;
  const check: CountCheck = {
    monthlyMoved: last.monthly - first.monthly,
    monthlyCalls: quota + probeQuotaRequests + 1,
    totalMoved: last.total - first.total,
    totalCalls: answered.length + 1,
    unanswered: keyed.length - answered.length,
    figures: {},
  };
  check.figures = {
    monthly_before: first.monthly,
    monthly_after: last.monthly,
    monthly_calls: check.monthlyCalls,
    total_before: first.total,
    total_after: last.total,
    total_calls: check.totalCalls,
  };
  return check;
}
