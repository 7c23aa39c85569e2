/**
 * The Redis keys the platform writes without a time to live, family by family, with who owns them
 * and what bounds or removes them. Every other key it writes expires by itself. docs/scaling.md
 * ("Keys without a time to live") shows this list as a table, which test/unit/redis-keys.test.ts
 * keeps equal to it, and `npm test` fails on any key a test run leaves without a time to live that
 * no family here matches (test/support/key-walk.ts).
 *
 * A pattern follows the key prefix (REDIS_KEY_PREFIX, `<p>` in the docs): `<name>` stands for one
 * part without `:` (an id, a day), `*` for anything. A new family is one more entry.
 */
export interface KeyFamily {
  /** The keys' names after the prefix. */
  keys: readonly string[];
  /** Who writes them, and who removes them if anyone does. */
  owner: string;
  /** Why they have no time to live, and what bounds how many there are or how large they grow. */
  bound: string;
}

export const KEYS_WITHOUT_TTL: readonly KeyFamily[] = [
  {
    keys: ['accounts:generation', 'cred:generation'],
    owner: 'keys subgraph, which increments them after account changes and revocations',
    bound: 'Counters every instance’s caches follow (accounts: also the read cache); one key each.',
  },
  {
    keys: ['usage:key:{<key id>}:total'],
    owner:
      'rest-facade (counts every authenticated call); set from the usage ledger by the keys subgraph when missing',
    bound: 'A key’s requests ever made (X-Usage-Total), kept for good: one per API key used.',
  },
  {
    keys: ['usage:tokens:last-used'],
    owner:
      'the engines of the gateway and the facade record a use; the keys subgraph forgets revoked tokens',
    bound: 'One hash, one field per live access token.',
  },
  {
    keys: ['{calls}', '{analytics:events}', '{events:platform}', '{events:website}', '{notices}'],
    owner:
      'producers append; each stream’s consumer group deletes what it handled (keys, analytics, webhooks, keys, keys)',
    bound:
      'Only their backlog; capped by MAXLEN ~ (100,000 batches, 5,000,000, 1,000,000, 100,000 and 100,000 entries).',
  },
  {
    keys: [
      '{calls}:dead',
      '{analytics:events}:dead',
      '{events:platform}:dead',
      '{events:website}:dead',
      '{notices}:dead',
    ],
    owner: 'the stream consumers append; operators read and delete them',
    bound:
      'Entries that failed 10 times, each logged as an error; kept until an operator deletes them.',
  },
  {
    keys: ['{analytics}:applied', '{analytics}:alive', '{analytics}:hot'],
    owner: 'analytics subgraph (the ingest lease holder)',
    bound:
      'One key each: the last entry applied, the mark of a Redis that kept its data, the hot days.',
  },
  {
    keys: ['{analytics}:epoch:<website id>'],
    owner: 'analytics subgraph (the ingest lease holder)',
    bound: 'The revision of a website’s day index: one per website with analytics data.',
  },
  {
    keys: [
      '{analytics}:day:<website id>:<day>',
      '{analytics}:c:<website id>:<day>:<family>',
      '{analytics}:hc:<website id>:<hour>:<family>',
      '{analytics}:cells:<website id>:<day>',
      '{analytics}:err:<website id>:<day>',
      '{analytics}:v:<website id>:<day>',
      '{analytics}:vo:<website id>:<day>',
      '{analytics}:vl:<website id>:<day>',
      '{analytics}:vp:<website id>:<day>',
      '{analytics}:r:<website id>:<day>',
      '{analytics}:blk:<website id>:<day>',
    ],
    owner: 'analytics subgraph (the ingest lease holder)',
    bound:
      'The hot tier: deleted when the day is sealed into MongoDB, 2 days after it once quiet; a few days per website with traffic.',
  },
  {
    keys: ['webhooks:intact'],
    owner: 'webhooks subgraph (RedisLossWatch)',
    bound:
      'One key: the mark of a Redis that kept its data; gone, the delivery queue is rebuilt from MongoDB.',
  },
  {
    keys: ['{bull}:webhook-deliveries:*'],
    owner: 'webhooks subgraph, through BullMQ',
    bound:
      'A job is removed an hour after it succeeds (at most 10,000 kept) and 7 days after it fails; BullMQ caps its event stream (10,000).',
  },
];

/** The family a key (after the prefix) belongs to, if it is one of those kept without a TTL. */
export function familyWithoutTtl(key: string): KeyFamily | undefined {
  return KEYS_WITHOUT_TTL.find((family) => family.keys.some((pattern) => matches(pattern, key)));
}

const compiled = new Map<string, RegExp>();

function matches(pattern: string, key: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    const source = pattern
      .split(/(<[^>]+>|\*)/)
      .map((part) =>
        part === '*'
          ? '.*'
          : part.startsWith('<')
            ? '[^:]+'
            : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
    regex = new RegExp(`^${source}$`);
    compiled.set(pattern, regex);
  }
  return regex.test(key);
}
