import { ReplyError } from 'ioredis';
import type { RedisClient } from '../../../../common/platform/redis';
import {
  admissionKey,
  admitAll,
  OTHER_VALUE,
  type Admit,
  type AdmissionRequest,
} from './aggregate';

/** Distinct values counted per website, dimension and UTC day; the rest count as `(other)`. */
export const DISTINCT_VALUES_PER_DAY = 1_000;
/** A day's admitted values are kept this long after the last batch that asked about them. */
const ADMITTED_TTL_SECONDS = 3 * 86_400;

/**
 * Per set (one website, dimension and day), for each value in ARGV[3..]: 1 when it is a member or
 * the set has room (it is added), else 0. Atomic, so the cap holds even if two instances ever
 * apply batches at once. A member stays admitted and a full set stays full, which is what makes a
 * retried batch decide exactly as its first attempt did.
 */
const ADMIT_VALUES = `
local cap = tonumber(ARGV[1])
local count = redis.call('SCARD', KEYS[1])
local admitted = {}
for i = 3, #ARGV do
  if redis.call('SISMEMBER', KEYS[1], ARGV[i]) == 1 then
    admitted[#admitted + 1] = 1
  elseif count < cap then
    redis.call('SADD', KEYS[1], ARGV[i])
    count = count + 1
    admitted[#admitted + 1] = 1
  else
    admitted[#admitted + 1] = 0
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return admitted
`;

/**
 * The Redis set of values admitted for one website, dimension and UTC day; in the hot tier's
 * `{analytics}` hash tag, since a batch asks about all of its sets in one pipeline.
 */
export const admittedValuesKey = (prefix: string, websiteId: string, dim: string, day: number) =>
  `${prefix}{analytics}:admitted:${websiteId}:${dim}:${new Date(day).toISOString().slice(0, 10)}`;

/**
 * Redis could not be asked which values are admitted. An outage, not a bad batch: the batch is
 * retried (and must not be counted with every value admitted, nor dead-lettered).
 */
export class AdmissionUnavailableError extends Error {
  override readonly name = 'AdmissionUnavailableError';
}

/**
 * Bounds the distinct values counted per website, dimension and UTC day, so that made-up paths,
 * sources, event names or error fingerprints posted to the public collector cannot make the
 * counters (and every read of them) grow without limit. Values are admitted first come, first
 * served, and remembered in Redis.
 */
export class ValueAdmission {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly cap = DISTINCT_VALUES_PER_DAY,
  ) {
    if (!Number.isInteger(cap) || cap < 1) throw new Error(`invalid distinct value cap: ${cap}`);
  }

  /**
   * Decides every request in one round trip, in the order given, and returns the answers as an
   * Admit for aggregateBatch (which throws on a question not decided here: a programming error).
   * Fails with AdmissionUnavailableError when Redis cannot be reached: nothing is admitted blindly.
   */
  async decide(requests: AdmissionRequest[]): Promise<Admit> {
    if (requests.length === 0) return admitAll;
    const bySet = new Map<string, AdmissionRequest[]>();
    for (const request of requests) {
      const key = admittedValuesKey(this.prefix, request.websiteId, request.dim, request.day);
      const list = bySet.get(key) ?? [];
      list.push(request);
      bySet.set(key, list);
    }
    const pipeline = this.redis.pipeline();
    for (const [key, list] of bySet)
      pipeline.eval(
        ADMIT_VALUES,
        1,
        key,
        this.cap,
        ADMITTED_TTL_SECONDS,
        ...list.map((r) => r.value),
      );
    let results: Array<[Error | null, unknown]> | null;
    try {
      results = await pipeline.exec();
    } catch (error) {
      throw unavailable(error);
    }
    if (!results) throw new AdmissionUnavailableError('the admission pipeline was aborted');
    const admitted = new Map<string, boolean>();
    [...bySet.values()].forEach((list, index) => {
      const [error, answers] = results[index] ?? [new Error('no answer'), null];
      if (error) throw error instanceof ReplyError ? error : unavailable(error);
      list.forEach((r, i) =>
        admitted.set(
          admissionKey(r.websiteId, r.dim, r.day, r.value),
          (answers as number[])[i] === 1,
        ),
      );
    });
    return (websiteId, dim, day, value) => {
      const answer = admitted.get(admissionKey(websiteId, dim, day, value));
      if (answer === undefined)
        throw new Error(`no admission decided for ${dim} value of website ${websiteId}`);
      return answer ? value : OTHER_VALUE;
    };
  }
}

function unavailable(error: unknown): AdmissionUnavailableError {
  return new AdmissionUnavailableError(
    `Redis unavailable for value admission: ${(error as Error)?.message ?? String(error)}`,
    { cause: error },
  );
}
