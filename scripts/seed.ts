/**
 * Demo data: an organization, a user, websites and an API key (through the keys subgraph's own
 * services), then realistic traffic written through the collector's write path (validation,
 * enrichment, Redis stream) and applied by the running analytics subgraph.
 *
 *   npm run seed -- --websites 2 --days 14 --visitors 50
 *
 * Beside a running `npm start` it uses that stack's databases, Redis and facade address
 * (.data/stack.json); MONGODB_URI (keys database), REDIS_URL, REDIS_KEY_PREFIX and FACADE_PORT
 * override them. The keys database is chosen as admin chooses it (chooseKeysStores), and said on
 * stderr.
 */
import { randomBytes } from 'node:crypto';
import { Command } from 'commander';
import { MultiBar, Presets } from 'cli-progress';
import { collectPayloadSchema } from '../rest-facade/src/collect/collect.schema';
import { appendEvent } from '../rest-facade/src/collect/collector.service';
import { demoTraffic, type DemoEvent } from './lib/demo-traffic';
import { enrich, normalizeIp } from '../rest-facade/src/collect/enrich';
import {
  ANALYTICS_CONSUMER_GROUP,
  analyticsEventStream,
} from '../common/contracts/collected-event';
import { compareStreamIds } from '../subgraphs/analytics/src/store/stream-ids';
import type { PlanName } from '../subgraphs/keys/src/plans';
import type { RedisClient } from '../common/platform/redis';
import { withKeysStores } from './lib/keys-stores';
import { readStackRecord } from './lib/stack-record';

const running = readStackRecord();
const program = new Command()
  .name('seed')
  .description('Create a demo account with websites, an API key and realistic traffic')
  .option('--plan <plan>', 'pro, scale or enterprise', 'pro')
  .option('--websites <n>', 'websites to create', (v) => Number.parseInt(v, 10), 2)
  .option('--days <n>', 'days of traffic ending now', (v) => Number.parseInt(v, 10), 14)
  .option('--visitors <n>', 'visitors per weekday per website', (v) => Number.parseInt(v, 10), 50)
  .option(
    '--wait <seconds>',
    'how long to wait for the analytics subgraph to apply the events',
    (v) => Number.parseInt(v, 10),
    300,
  )
  .option(
    '--base-url <url>',
    'REST facade address for the printed curl line (default: the running npm start, else FACADE_PORT)',
    running?.facadeUrl ?? `http://127.0.0.1:${process.env.FACADE_PORT ?? 3000}`,
  )
  .option('--seed <n>', 'random seed', (v) => Number.parseInt(v, 10), 42);

const fieldOf = (flat: unknown[], name: string) => flat[flat.indexOf(name) + 1];

/** Whether the analytics consumer group has read and acknowledged every entry up to `id`. */
async function appliedThrough(redis: RedisClient, stream: string, id: string): Promise<boolean> {
  const groups = (await redis.xinfo('GROUPS', stream)) as unknown[][];
  const group = groups.find((g) => fieldOf(g, 'name') === ANALYTICS_CONSUMER_GROUP);
  if (!group) return false;
  const delivered = String(fieldOf(group, 'last-delivered-id'));
  if (compareStreamIds(delivered, id) < 0) return false;
  const [pending, oldest] = (await redis.xpending(stream, ANALYTICS_CONSUMER_GROUP)) as [
    number,
    string | null,
  ];
  return pending === 0 || (oldest !== null && compareStreamIds(oldest, id) > 0);
}

interface SeedOptions {
  plan: PlanName;
  websites: number;
  days: number;
  visitors: number;
  baseUrl: string;
  seed: number;
  wait: number;
}

async function main(): Promise<void> {
  const options = program.parse().opts<SeedOptions>();
  await withKeysStores('seed', async (stores) => {
    const { websites, curl } = await createAccount(stores, options);
    const now = Date.now();
    const batches = websites.map((w, i) => [
      ...demoTraffic({
        trackingCode: w.trackingCode,
        host: w.domain,
        days: options.days,
        visitorsPerDay: options.visitors,
        now,
        seed: options.seed + i,
      }),
    ]);
    const done = await sendTraffic(stores, websites, batches, options.wait);
    if (!done)
      console.log(
        `\nSome events are still queued in Redis after ${options.wait} s; the analytics subgraph applies them once it runs (is npm start running?).`,
      );
    else console.log('\nThe analytics subgraph has applied every event. Try:');
    console.log(curl);
  });
}

type Stores = Parameters<Parameters<typeof withKeysStores>[1]>[0];
type DemoWebsite = { id: string; domain: string; trackingCode: string };

/** An organization on the plan, its owner, its websites and an API key; prints them and a curl. */
async function createAccount({ accounts, credentials }: Stores, options: SeedOptions) {
  const suffix = randomBytes(3).toString('hex');
  const organization = await accounts.createOrganization({
    name: `Demo ${suffix}`,
    plan: options.plan,
  });
  const user = await accounts.createUser(`demo-${suffix}@example.com`);
  await accounts.addMember(organization.id, user.id, 'owner');
  const websites: DemoWebsite[] = [];
  for (let i = 0; i < options.websites; i += 1) {
    websites.push(
      await accounts.createWebsite({
        organizationId: organization.id,
        name: `Demo site ${i + 1}`,
        domain: `demo${i + 1}-${suffix}.example.com`,
      }),
    );
  }
  const { key } = await credentials.createApiKey({
    organizationId: organization.id,
    userId: user.id,
    name: 'Demo key',
    expiration: '90d',
  });
  console.log(`Organization ${organization.name} (${options.plan}), user ${user.email}`);
  for (const w of websites)
    console.log(`  website ${w.id}  ${w.domain}  tracking code ${w.trackingCode}`);
  console.log(`\nAPI key (shown once): ${key}`);
  const curl = `curl -s -H 'X-API-Key: ${key}' '${options.baseUrl}/api/external/v1/analytics/${websites[0]!.id}?range=30d'`;
  console.log(`${curl}\n`);
  return { websites, curl };
}

/**
 * Appends each website's events to the analytics stream as POST /api/collect would, showing
 * progress, and waits up to `waitSeconds` for the analytics subgraph to apply them; true when it
 * has.
 */
async function sendTraffic(
  { redis, redisKeyPrefix }: Stores,
  websites: DemoWebsite[],
  batches: DemoEvent[][],
  waitSeconds: number,
): Promise<boolean> {
  const total = batches.reduce((n, b) => n + b.length, 0);
  const stream = analyticsEventStream(redisKeyPrefix);
  const backlogBefore = await redis.xlen(stream);
  const bars = new MultiBar(
    {
      format: '{phase} |{bar}| {value}/{total} events',
      hideCursor: true,
      // Piped or logged (no terminal): a plain line per bar each second instead of nothing.
      noTTYOutput: true,
      notTTYSchedule: 1000,
    },
    Presets.shades_classic,
  );
  const queued = bars.create(total, 0, { phase: 'queued ' });
  const applied = bars.create(total, 0, { phase: 'applied' });
  /** Entries left in the stream are not applied yet (the consumer deletes what it applied). */
  const watchApplied = setInterval(() => {
    void redis.xlen(stream).then(
      (backlog) =>
        applied.update(Math.max(0, queued.getProgress() * total - (backlog - backlogBefore))),
      () => undefined,
    );
  }, 250);
  const saltOf = dailySalts();
  for (const [i, events] of batches.entries()) {
    const website = websites[i]!;
    for (let start = 0; start < events.length; start += 200) {
      await Promise.all(
        events.slice(start, start + 200).map((e) => {
          // The same validation and enrichment as POST /api/collect.
          const payload = collectPayloadSchema.parse(e.payload);
          const event = enrich(payload, {
            websiteId: website.id,
            ip: normalizeIp(e.ip),
            userAgent: e.userAgent,
            countryHeader: undefined,
            salt: saltOf(e.ts),
            now: e.ts,
          });
          return appendEvent(redis, redisKeyPrefix, event);
        }),
      );
      queued.increment(Math.min(200, events.length - start));
    }
  }
  const done = await waitUntilApplied(redis, stream, waitSeconds);
  clearInterval(watchApplied);
  if (done) applied.update(total);
  bars.stop();
  return done;
}

/** A salt per UTC day, as the collector rotates its own. */
function dailySalts() {
  const salts = new Map<number, string>();
  return (ts: number) => {
    const day = Math.floor(ts / 86_400_000);
    if (!salts.has(day)) salts.set(day, randomBytes(32).toString('hex'));
    return salts.get(day) as string;
  };
}

/** Waits up to `waitSeconds` for every entry appended so far to be applied; true when it was. */
async function waitUntilApplied(
  redis: Stores['redis'],
  stream: string,
  waitSeconds: number,
): Promise<boolean> {
  const last = String(
    fieldOf((await redis.xinfo('STREAM', stream)) as unknown[], 'last-generated-id'),
  );
  const deadline = Date.now() + waitSeconds * 1000;
  let done = await appliedThrough(redis, stream, last);
  while (!done && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    done = await appliedThrough(redis, stream, last);
  }
  return done;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
