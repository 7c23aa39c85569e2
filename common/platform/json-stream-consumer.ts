import type { Logger } from './logger';
import { isMongoUnavailable } from './mongo-outage';
import type { RedisClient } from './redis';
import { StreamConsumer, type StreamEntry } from './stream-consumer';

export interface JsonStreamOptions<T> {
  redis: RedisClient;
  stream: string;
  group: string;
  logger: Logger;
  /** The entry field that holds the JSON. */
  field: string;
  /** What an entry is, for the log line of an unreadable one ("platform event"). */
  what: string;
  /** The value when it is one, else null (unreadable: logged, acknowledged and skipped). */
  read(value: unknown): T | null;
  /** Handles one value; must be idempotent (a batch is handed over again after a crash). */
  handle(value: T): Promise<unknown>;
  batchSize?: number;
  claimIdleMs?: number;
}

/**
 * A stream of JSON values, each handled in turn, whose group is its only reader (handled entries
 * are deleted): a failed batch is retried in place, so what arrived during an outage of MongoDB or
 * Redis is handled as soon as it ends, and such an outage never dead-letters it; another failure
 * ten times in a row sends the batch to `<stream>:dead`.
 */
export function createJsonStreamConsumer<T>(options: JsonStreamOptions<T>): StreamConsumer {
  const { redis, logger, field, what, read, handle } = options;
  const parse = (raw: string | undefined): T | null => {
    if (!raw) return null;
    try {
      return read(JSON.parse(raw));
    } catch {
      return null;
    }
  };
  return new StreamConsumer({
    redis,
    stream: options.stream,
    group: options.group,
    logger,
    batchSize: options.batchSize ?? 50,
    ...(options.claimIdleMs ? { claimIdleMs: options.claimIdleMs } : {}),
    deleteAcknowledged: true,
    retry: {
      maxAttempts: 10,
      isTransient: (error) => isMongoUnavailable(error) || redis.status !== 'ready',
    },
    handle: async (entries: StreamEntry[]) => {
      for (const entry of entries) {
        const value = parse(entry.fields[field]);
        if (value !== null) await handle(value);
        else logger.error({ entry: entry.id }, `${what} unreadable; acknowledged and skipped`);
      }
    },
  });
}
