/**
 * Demo data: an organization, a user, websites and an API key (through the keys subgraph's own
 * services), then realistic traffic written through the collector's write path (validation,
 * enrichment, Redis stream) and applied by the running analytics subgraph.
 *
 *   npx tsx scripts/seed.ts --websites 2 --days 14 --visitors 50
 *
 * On FerretDB's SQLite backend every upsert scans its collection, so applying a few thousand
 * events spread over many hours takes minutes (on MongoDB, seconds); keep the defaults small there.
 *
 * Reads MONGODB_URI (keys database), REDIS_URL, REDIS_KEY_PREFIX like the services do.
 */
import { randomBytes } from 'node:crypto';
import { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { collectPayloadSchema } from '../rest-facade/src/collect/collect.schema';
import { appendEvent } from '../rest-facade/src/collect/collector.service';
import { demoTraffic } from '../rest-facade/src/collect/demo-traffic';
import { enrich, normalizeIp } from '../rest-facade/src/collect/enrich';
import { analyticsEventStream } from '../subgraphs/analytics/src/ingest/collected-event';
import { waitForStreamIdle } from '../subgraphs/analytics/src/services/ingest.service';
import type { PlanName } from '../subgraphs/keys/src/plans';
import { withKeysStores } from './lib/keys-stores';

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
    900,
  )
  .option(
    '--base-url <url>',
    'REST facade address for the printed curl line',
    'http://127.0.0.1:3000',
  )
  .option('--seed <n>', 'random seed', (v) => Number.parseInt(v, 10), 42);

async function main(): Promise<void> {
  const options = program.parse().opts<{
    plan: PlanName;
    websites: number;
    days: number;
    visitors: number;
    baseUrl: string;
    seed: number;
    wait: number;
  }>();
  await withKeysStores('seed', async ({ accounts, credentials, redis, redisKeyPrefix }) => {
    const suffix = randomBytes(3).toString('hex');
    const organization = await accounts.createOrganization({
      name: `Demo ${suffix}`,
      plan: options.plan,
    });
    const user = await accounts.createUser(`demo-${suffix}@example.com`);
    await accounts.addMember(organization.id, user.id, 'owner');
    const websites = [];
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
    const total = batches.reduce((n, b) => n + b.length, 0);
    const bar = new SingleBar(
      { format: 'traffic |{bar}| {value}/{total} events | {eta_formatted} left' },
      Presets.shades_classic,
    );
    bar.start(total, 0);
    const salts = new Map<number, string>();
    const saltOf = (ts: number) => {
      const day = Math.floor(ts / 86_400_000);
      if (!salts.has(day)) salts.set(day, randomBytes(32).toString('hex'));
      return salts.get(day) as string;
    };
    let done = 0;
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
        done += Math.min(200, events.length - start);
        bar.update(done);
      }
    }
    bar.stop();
    try {
      console.log('Waiting for the analytics subgraph to apply the events…');
      await waitForStreamIdle(redis, analyticsEventStream(redisKeyPrefix), options.wait * 1000);
      console.log('The analytics subgraph has applied every event.');
    } catch (error) {
      console.log(
        `Events are queued in Redis; they are applied once the analytics subgraph runs (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    console.log(`\nOrganization ${organization.name} (${options.plan}), user ${user.email}`);
    for (const w of websites)
      console.log(`  website ${w.id}  ${w.domain}  tracking code ${w.trackingCode}`);
    console.log(`\nAPI key (shown once): ${key}\n`);
    console.log(
      `curl -s -H 'X-API-Key: ${key}' '${options.baseUrl}/api/external/v1/analytics/${websites[0]!.id}?range=30d'`,
    );
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
