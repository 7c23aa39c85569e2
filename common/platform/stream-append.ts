import type { RedisClient } from './redis';

/** Appends the entry unless its marker was set before, atomically: 1 when appended, else 0. */
const APPEND_ONCE = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 0 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', ARGV[3], ARGV[4])
return 1`;

export interface AppendOnce {
  stream: string;
  /** Cap of the stream (MAXLEN ~). */
  maxLength: number;
  /** Names what is appended; set for `rememberMs`, so a second append of it is dropped. */
  id: string;
  rememberMs: number;
  field: string;
  value: string;
}

/**
 * Appends one entry (`field` = `value`) to a stream unless an entry with the same id was appended
 * within `rememberMs`, in one script: for things with a stable id that several instances may try
 * to publish. The marker (`<stream>:published:<id>`) shares the stream's hash tag. True when appended.
 */
export async function appendOnce(redis: RedisClient, entry: AppendOnce): Promise<boolean> {
  const appended = await redis.eval(
    APPEND_ONCE,
    2,
    `${entry.stream}:published:${entry.id}`,
    entry.stream,
    entry.rememberMs,
    String(entry.maxLength),
    entry.field,
    entry.value,
  );
  return appended === 1;
}
