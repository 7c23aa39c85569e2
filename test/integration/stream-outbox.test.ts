import { randomBytes } from 'node:crypto';
import { createLogger } from '../../common/platform/logger';
import type { RedisClient } from '../../common/platform/redis';
import { StreamOutbox, type OutboxOptions } from '../../common/platform/stream-outbox';
import { captureLogs } from '../support/log-capture';
import { deleteKeysMatching, openTestRedis, testKeyPrefix } from '../support/redis';
import { waitFor } from '../support/wait';

const GROUP = 'readers';
const LIMITS = { entries: 1_000, chars: 1_000_000 };

describe('StreamOutbox: entries kept until their consumer has taken them', () => {
  let redis: RedisClient;
  let stream: string;
  const outboxes: Array<StreamOutbox<string>> = [];

  beforeAll(async () => {
    redis = await openTestRedis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  beforeEach(async () => {
    // A hash tag of its own, as the services' streams have (the marker shares its slot).
    stream = `${testKeyPrefix('outbox')}{${randomBytes(4).toString('hex')}}`;
    await redis.xgroup('CREATE', stream, GROUP, '0', 'MKSTREAM');
  });
  afterEach(async () => {
    await Promise.all(outboxes.splice(0).map((outbox) => outbox.close(0)));
    await deleteKeysMatching(redis, `${stream}*`);
  });
  afterAll(() => redis.disconnect());

  function outboxFor(overrides: Partial<OutboxOptions<string>> = {}) {
    const logs = captureLogs();
    const outbox = new StreamOutbox<string>(redis, {
      stream,
      maxLength: 10_000,
      what: 'test entries',
      unit: 'entries',
      logger: createLogger('test', 'info', logs.sink),
      hold: LIMITS,
      keep: LIMITS,
      batch: LIMITS,
      confirmEveryMs: 50,
      ...overrides,
    });
    outboxes.push(outbox);
    return { outbox, logs };
  }

  const append = (outbox: StreamOutbox<string>, ...names: string[]) =>
    Promise.all(names.map((name) => outbox.append(['name', name], name)));

  const inStream = async () =>
    (await redis.xrange(stream, '-', '+')).map(([, fields]) => fields[1]!);

  /** What the services' consumers do (deleteAcknowledged): read, handle, XACK and XDEL. */
  async function take(count: number): Promise<string[]> {
    const read = (await redis.xreadgroup(
      'GROUP',
      GROUP,
      'reader',
      'COUNT',
      count,
      'STREAMS',
      stream,
      '>',
    )) as Array<[string, Array<[string, string[]]>]> | null;
    const entries = read?.[0]?.[1] ?? [];
    const ids = entries.map(([id]) => id);
    if (ids.length > 0)
      await redis
        .multi()
        .xack(stream, GROUP, ...ids)
        .xdel(stream, ...ids)
        .exec();
    return entries.map(([, fields]) => fields[1]!);
  }

  /** Redis losing its data, for this stream: the stream, its group and the outboxes' markers. */
  async function loseData(): Promise<void> {
    await deleteKeysMatching(redis, `${stream}:outbox:*`);
    await redis.del(stream);
    await redis.xgroup('CREATE', stream, GROUP, '0', 'MKSTREAM');
  }

  it('when entries are appended, then they are in the stream in order and kept until the consumer has taken them', async () => {
    const { outbox } = outboxFor();
    await append(outbox, 'a', 'b', 'c');

    expect(await inStream()).toEqual(['a', 'b', 'c']);
    expect(outbox.unconfirmed).toBe(3);

    expect(await take(2)).toEqual(['a', 'b']);
    await waitFor(() => outbox.unconfirmed === 1);
    expect(await take(1)).toEqual(['c']);
    await waitFor(() => outbox.unconfirmed === 0);
  });

  it('when Redis loses its data before the consumer took every entry, then exactly the untaken ones are appended again, once and in order', async () => {
    const { outbox, logs } = outboxFor();
    await append(outbox, 'a', 'b', 'c', 'd');
    expect(await take(1)).toEqual(['a']);
    await waitFor(() => outbox.unconfirmed === 3);

    await loseData();

    await waitFor(async () => (await inStream()).length === 3);
    expect(await inStream()).toEqual(['b', 'c', 'd']);
    // Appended again once: nothing more arrives on the later checks.
    await append(outbox, 'e');
    expect(await inStream()).toEqual(['b', 'c', 'd', 'e']);
    const lost = logs.records().filter((line) => line.msg.startsWith('redis lost test entries'));
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ level: 'warn', entries: 3 });
  });

  it('when Redis loses its data twice in a row, then every untaken entry is in the stream once after each loss', async () => {
    const { outbox } = outboxFor();
    await append(outbox, 'a', 'b');
    await loseData();
    await waitFor(async () => (await inStream()).length === 2);
    await append(outbox, 'c');
    await loseData();

    await waitFor(async () => (await inStream()).length === 3);
    expect(await inStream()).toEqual(['a', 'b', 'c']);
    expect(await take(3)).toEqual(['a', 'b', 'c']);
    await waitFor(() => outbox.unconfirmed === 0);
  });

  it('when an entry the consumer took is confirmed and Redis then loses its data, then that entry is not appended again', async () => {
    const { outbox } = outboxFor();
    await append(outbox, 'a', 'b');
    expect(await take(2)).toEqual(['a', 'b']);
    await waitFor(() => outbox.unconfirmed === 0);

    await loseData();
    await append(outbox, 'c');

    expect(await inStream()).toEqual(['c']);
  });

  it('when more entries wait for the consumer than the outbox keeps, then the oldest are let go with one warning and the rest are still appended again after a loss', async () => {
    const { outbox, logs } = outboxFor({ keep: { entries: 2, chars: 1_000_000 } });
    await append(outbox, 'a', 'b', 'c', 'd');
    expect(outbox.unconfirmed).toBe(2);
    const warnings = logs
      .records()
      .filter((line) => line.msg.startsWith('test entries are not taken from the stream'));
    expect(warnings).toHaveLength(1);

    await loseData();

    await waitFor(async () => (await inStream()).length === 2);
    expect(await inStream()).toEqual(['c', 'd']);
  });
});
