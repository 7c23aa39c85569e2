import { mongoUriDatabase, mongoUriWithDatabase } from '../../common/platform/config';
import {
  chooseKeysStores,
  NoKeysDatabaseError,
  type StackRecords,
} from '../../scripts/lib/keys-stores';
import type { EngineRecord, StackRecord } from '../../scripts/lib/stack-record';

const buildStackRecord = (overrides: Partial<StackRecord> = {}): StackRecord => ({
  pid: 4242,
  facadeUrl: 'http://127.0.0.1:3000',
  dashboardUrl: 'http://127.0.0.1:4000',
  keysMongoUri: 'mongodb://127.0.0.1:27018/wa_keys',
  redisUrl: 'redis://127.0.0.1:6380',
  redisKeyPrefix: 'stack:',
  ...overrides,
});

const buildEngineRecord = (overrides: Partial<EngineRecord> = {}): EngineRecord => ({
  kind: 'ferretdb',
  port: 38211,
  pid: 4243,
  dataDir: '/repo/.data/ferretdb',
  startedAt: '2026-11-24T10:00:00.000Z',
  ...overrides,
});

const none: StackRecords = { running: null, engine: null };

/** A fake server list: only these URIs answer; every URI asked about is kept. */
function answering(...uris: string[]) {
  const asked: string[] = [];
  const answers = async (uri: string) => {
    asked.push(uri);
    return uris.includes(uri);
  };
  return { asked, answers };
}

describe('MongoDB URIs', () => {
  it.each([
    ['mongodb://127.0.0.1:27017/', undefined],
    ['mongodb://127.0.0.1:27017', undefined],
    ['mongodb://127.0.0.1:27017/?directConnection=true', undefined],
    ['mongodb://u:p%2Fw@a:1,b:2/wa_keys?replicaSet=rs0', 'wa_keys'],
    ['mongodb+srv://cluster.example.net/app', 'app'],
  ])('when the URI is %s, then the database it names is %s', (uri, database) => {
    expect(mongoUriDatabase(uri)).toBe(database);
  });

  it('when a database is set, then credentials, hosts and options stay as they were', () => {
    expect(mongoUriWithDatabase('mongodb://u:p%2Fw@a:1,b:2/old?replicaSet=rs0', 'wa_keys')).toBe(
      'mongodb://u:p%2Fw@a:1,b:2/wa_keys?replicaSet=rs0',
    );
    expect(mongoUriWithDatabase('mongodb://127.0.0.1:27017', 'wa_keys')).toBe(
      'mongodb://127.0.0.1:27017/wa_keys',
    );
  });
});

describe('chooseKeysStores (admin and seed)', () => {
  it('when MONGODB_URI names no database, then it means wa_keys, the keys database npm start gives the keys subgraph', async () => {
    const { asked, answers } = answering();
    const chosen = await chooseKeysStores(
      { MONGODB_URI: 'mongodb://db.example:27017/' },
      none,
      answers,
    );
    expect(chosen).toEqual({
      mongoUri: 'mongodb://db.example:27017/wa_keys',
      redisUrl: 'redis://127.0.0.1:6379',
      redisKeyPrefix: 'wa:',
      source: 'MONGODB_URI',
    });
    expect(asked).toEqual([]);
  });

  it('when MONGODB_URI names a database, then that one is used, even beside a running npm start', async () => {
    const chosen = await chooseKeysStores(
      { MONGODB_URI: 'mongodb://db.example:27017/accounts' },
      { running: buildStackRecord(), engine: buildEngineRecord() },
      answering().answers,
    );
    expect(chosen.mongoUri).toBe('mongodb://db.example:27017/accounts');
    // Redis still follows the running stack unless REDIS_URL says otherwise.
    expect(chosen).toMatchObject({ redisUrl: 'redis://127.0.0.1:6380', redisKeyPrefix: 'stack:' });
  });

  it('when npm start runs, then its keys database, Redis and prefix are used without asking anything', async () => {
    const { asked, answers } = answering();
    const chosen = await chooseKeysStores(
      {},
      { running: buildStackRecord(), engine: buildEngineRecord() },
      answers,
    );
    expect(chosen).toEqual({
      mongoUri: 'mongodb://127.0.0.1:27018/wa_keys',
      redisUrl: 'redis://127.0.0.1:6380',
      redisKeyPrefix: 'stack:',
      source: 'the running npm start (pid 4242, stack.json)',
    });
    expect(asked).toEqual([]);
  });

  it('when npm start does not run but the engine it last started answers, then that engine is used, not 27017', async () => {
    const { asked, answers } = answering(
      'mongodb://127.0.0.1:38211/wa_keys',
      'mongodb://127.0.0.1:27017/wa_keys',
    );
    const chosen = await chooseKeysStores(
      { REDIS_KEY_PREFIX: 'mine:' },
      { running: null, engine: buildEngineRecord() },
      answers,
    );
    expect(chosen).toEqual({
      mongoUri: 'mongodb://127.0.0.1:38211/wa_keys',
      redisUrl: 'redis://127.0.0.1:6379',
      redisKeyPrefix: 'mine:',
      source: 'the ferretdb the last npm start started (engine.json)',
    });
    expect(asked).toEqual(['mongodb://127.0.0.1:38211/wa_keys']);
  });

  it('when the engine npm start last started does not answer, then it refuses and names that engine, even if 27017 answers', async () => {
    const { asked, answers } = answering('mongodb://127.0.0.1:27017/wa_keys');
    const choosing = chooseKeysStores({}, { running: null, engine: buildEngineRecord() }, answers);
    await expect(choosing).rejects.toThrow(NoKeysDatabaseError);
    await expect(choosing).rejects.toThrow(
      /npm start is not running, and the ferretdb it last started \(127\.0\.0\.1:38211.*does not answer; start the stack \(npm start\), or set MONGODB_URI/,
    );
    expect(asked).toEqual(['mongodb://127.0.0.1:38211/wa_keys']);
  });

  it('when nothing is recorded and 27017 answers, then it is used and said to be the default', async () => {
    const chosen = await chooseKeysStores(
      {},
      none,
      answering('mongodb://127.0.0.1:27017/wa_keys').answers,
    );
    expect(chosen).toMatchObject({
      mongoUri: 'mongodb://127.0.0.1:27017/wa_keys',
      source: 'the default address (no npm start recorded)',
    });
  });

  it('when nothing is recorded and nothing answers on 27017, then it refuses and says what it tried', async () => {
    await expect(chooseKeysStores({}, none, answering().answers)).rejects.toThrow(
      /npm start is not running \(no .*stack\.json\), has not started an engine here, and nothing answers on 127\.0\.0\.1:27017/,
    );
  });

  it('when MONGODB_URI is not a MongoDB URI, then the variable is named', async () => {
    await expect(
      chooseKeysStores({ MONGODB_URI: 'postgres://x' }, none, answering().answers),
    ).rejects.toThrow(/MONGODB_URI/);
  });
});
