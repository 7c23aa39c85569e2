import type { Socket } from 'node:net';
import {
  Cluster,
  Redis,
  ReplyError,
  type ClusterOptions,
  type Command,
  type RedisOptions,
} from 'ioredis';
import type { Logger } from './logger';
import { flushAtTurnEnd } from './turn-end';

/**
 * A connection to Redis: one server (`redis://`, `rediss://`) or a Redis Cluster
 * (`redis+cluster://host:port,host:port`, `rediss+cluster://…`), chosen by REDIS_URL alone. Keys
 * that a command, script or transaction uses together carry one hash tag (docs/scaling.md), so
 * both run the same code.
 */
export type RedisClient = Redis | Cluster;

/** What a caller may change of a connection's defaults (a blocking reader, BullMQ's own). */
export interface RedisConnectionOptions {
  enableOfflineQueue?: boolean;
  enableAutoPipelining?: boolean;
  maxRetriesPerRequest?: number | null;
}

const CLUSTER_URL = /^(rediss?)\+cluster:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#]+)\/?$/;

/** The seed nodes and credentials of a `redis+cluster://` URL; null for a one-server URL. */
export function parseRedisClusterUrl(url: string): {
  nodes: Array<{ host: string; port: number }>;
  options: RedisOptions;
} | null {
  const match = CLUSTER_URL.exec(url);
  if (!match) return null;
  const [, scheme, username, password, hosts] = match;
  const nodes = hosts!.split(',').map((hostPort) => {
    const at = hostPort.lastIndexOf(':');
    const host = at > 0 ? hostPort.slice(0, at).replace(/^\[|\]$/g, '') : hostPort;
    return { host, port: at > 0 ? Number(hostPort.slice(at + 1)) : 6379 };
  });
  return {
    nodes,
    options: {
      ...(username ? { username: decodeURIComponent(username) } : {}),
      ...(password ? { password: decodeURIComponent(password) } : {}),
      ...(scheme === 'rediss' ? { tls: {} } : {}),
    },
  };
}

/**
 * Commands fail fast while Redis is away (no offline queue) or after 2 s when it hangs, so callers
 * can fall back instead of piling requests up; ioredis keeps reconnecting in the background.
 */
const CONNECTION_DEFAULTS = {
  // Commands issued in the same turn of the event loop share one write and one round trip: under
  // concurrency the per-request counters and limiter calls cost far fewer syscalls. A Cluster
  // uses ioredis' auto-pipelining for it, one server a corked socket (TurnBatchedRedis).
  enableAutoPipelining: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  // A Redis that hangs without closing the connection (overloaded, paused) fails a command
  // after 2 s like one that is down, instead of holding the request; blocking stream reads
  // wait at most 1 s.
  commandTimeout: 2_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
  lazyConnect: false,
} satisfies RedisOptions;

/** Cluster options: the queue and pipelining settings belong to the cluster, the rest to each node. */
function clusterOptions(node: RedisOptions, overrides: RedisConnectionOptions): ClusterOptions {
  const settings = { ...CONNECTION_DEFAULTS, ...overrides };
  return {
    enableAutoPipelining: settings.enableAutoPipelining,
    // Their keys are not where ioredis looks for them (after a subcommand): sent on their own, to
    // a node that redirects them (MOVED), rather than in a node's automatic pipeline, which fails
    // on a redirection. Both are rare (stream set-up, readiness probes, scrapes).
    autoPipeliningIgnoredCommands: ['xinfo', 'xgroup'],
    enableOfflineQueue: settings.enableOfflineQueue,
    clusterRetryStrategy: settings.retryStrategy,
    lazyConnect: false,
    redisOptions: {
      ...node,
      connectTimeout: settings.connectTimeout,
      commandTimeout: settings.commandTimeout,
      maxRetriesPerRequest: settings.maxRetriesPerRequest,
    },
  };
}

type CommandQueue = Redis['commandQueue'];

/**
 * Runs `decide` once the event loop has read what its sockets hold. A time-out's timer fires
 * before the loop reads its sockets: after the loop itself was held up (a long task, a machine
 * short of CPU), a reply that came in time is still unread when the timer fires, and a healthy
 * connection would be taken for a hung one.
 */
function afterPendingReads(decide: () => void): void {
  setImmediate(decide);
}

/**
 * A connection to one server that sends the commands of a turn of the event loop in one write:
 * the socket is corked at the turn's first command and uncorked at the turn's end, once the
 * turn's I/O callbacks and batches have run (turn-end.ts; the batching `writable.cork()` is made
 * for), instead of ioredis' auto-pipelining. The same commands leave together in the same order,
 * as plain commands: an auto-pipeline's `Pipeline`, whose commands and replies outlived it, made
 * a cached External API read cost the facade about a sixth more CPU, most of it in young-generation
 * garbage collection (docs/benchmarks.md). Commands written while the socket is not ready are
 * refused as before (no offline queue); a connection that WATCHes keeps its turn's commands in
 * order all the same.
 *
 * The command time-out (`commandTimeout`) is kept per connection for the same reason: ioredis
 * arms a timer for every command, which outlives the command's reply by the whole time-out, so
 * under load each was promoted to the old generation. Here a check every quarter of the time-out
 * fails every command still waiting ("Command timed out", as ioredis says it) once the oldest has
 * had no reply for the whole time-out: Redis answers in order, so nothing behind it could have
 * come back either.
 *
 * Commands still waiting when the connection drops fail with it ("Connection is closed."), where
 * ioredis would send them again once it reconnects: the caller has long been told of a time-out
 * or moved on by then, and an INCR or XADD sent again would count twice.
 */
class TurnBatchedRedis extends Redis {
  /** How long the oldest waiting command may go without a reply; none when undefined. */
  readonly replyTimeoutMs: number | undefined;
  private oldestWaiting: object | undefined;
  private oldestWaitingSince = 0;

  constructor(url: string | undefined, { commandTimeout, ...options }: RedisOptions) {
    if (url) super(url, options);
    else super(options);
    this.replyTimeoutMs = commandTimeout;
    // Emitted once ioredis has set the dropped connection's waiting commands aside.
    this.on('close', () => this.failSetAsideCommands());
    if (commandTimeout === undefined) return;
    const check = setInterval(() => this.failStalledCommands(commandTimeout), commandTimeout / 4);
    check.unref();
    this.once('end', () => clearInterval(check));
  }

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    const socket = this.stream as Socket | undefined;
    // Corked already: a command of this turn went before (nothing else corks this socket).
    if (!stream && socket?.writableCorked === 0 && this.status === 'ready') {
      socket.cork();
      flushAtTurnEnd(() => socket.uncork());
    }
    return super.sendCommand(command, stream);
  }

  private failStalledCommands(timeoutMs: number): void {
    const oldest = this.commandQueue.peekFront()?.command;
    const now = performance.now();
    if (oldest !== this.oldestWaiting) {
      this.oldestWaiting = oldest;
      this.oldestWaitingSince = now;
      return;
    }
    if (!oldest || now - this.oldestWaitingSince < timeoutMs) return;
    afterPendingReads(() => {
      if (this.commandQueue.peekFront()?.command !== oldest) return;
      // Rejected where they wait: their replies, should they come, still pair with them in order.
      for (const { command } of this.commandQueue.toArray())
        command.reject(new Error('Command timed out'));
    });
  }

  private failSetAsideCommands(): void {
    // Where ioredis keeps them until it reconnects and sends them again.
    const setAside = (this as unknown as { prevCommandQueue?: CommandQueue | null })
      .prevCommandQueue;
    for (let item = setAside?.shift(); item; item = setAside?.shift())
      item.command.reject(new Error('Connection is closed.'));
  }
}

/** A new connection to REDIS_URL's server or cluster, with our defaults and `overrides`. */
export function createRedis(url: string, overrides: RedisConnectionOptions = {}): RedisClient {
  const cluster = parseRedisClusterUrl(url);
  if (cluster) return new Cluster(cluster.nodes, clusterOptions(cluster.options, overrides));
  return new TurnBatchedRedis(url, {
    ...CONNECTION_DEFAULTS,
    ...overrides,
    enableAutoPipelining: false,
  });
}

/**
 * A connection for BullMQ, which needs one that waits for Redis (offline queue, retries forever,
 * no command time-out: its workers block): ioredis' defaults and `maxRetriesPerRequest: null`, on
 * the server or the cluster REDIS_URL names. BullMQ duplicates it for its blocking reads.
 */
export function createQueueRedis(url: string): RedisClient {
  const cluster = parseRedisClusterUrl(url);
  if (!cluster) return new Redis(url, { maxRetriesPerRequest: null, enableOfflineQueue: true });
  return new Cluster(cluster.nodes, {
    enableOfflineQueue: true,
    redisOptions: { ...cluster.options, maxRetriesPerRequest: null },
  });
}

/** A second connection to the same server or cluster (a blocking reader, a WATCH writer). */
export function duplicateRedis(
  redis: RedisClient,
  overrides: RedisConnectionOptions = {},
): RedisClient {
  if (redis instanceof TurnBatchedRedis)
    return new TurnBatchedRedis(undefined, {
      ...redis.options,
      commandTimeout: redis.replyTimeoutMs,
      ...overrides,
      enableAutoPipelining: false,
    });
  if (!(redis instanceof Cluster)) return redis.duplicate(overrides);
  const node = { ...redis.options.redisOptions };
  return redis.duplicate(
    [],
    clusterOptions(node, {
      enableAutoPipelining: redis.options.enableAutoPipelining,
      enableOfflineQueue: redis.options.enableOfflineQueue,
      maxRetriesPerRequest: node.maxRetriesPerRequest,
      ...overrides,
    }),
  );
}

/**
 * The servers that hold keys: each master of a cluster, or the one server. A SCAN or KEYS covers
 * one server's keys only, so on a cluster it is asked of each.
 */
export function keyHolders(redis: RedisClient): Redis[] {
  return redis instanceof Cluster ? redis.nodes('master') : [redis];
}

export async function waitForRedis(redis: RedisClient, timeoutMs = 5_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not reachable within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

export async function pingRedis(redis: RedisClient): Promise<void> {
  await redis.ping();
}

const REDIS_WARNING_INTERVAL_MS = 30_000;

/**
 * Logs a connection's errors: the first of an outage at once, then at most one warning every
 * 30 s (with how many were left out) while ioredis keeps reconnecting, and one line when it is
 * ready again. Also keeps ioredis from printing unhandled error events to stderr. `countError`
 * is told of every error, logged or not (`redis_errors_total`, common/metrics.ts).
 */
export function logRedisErrors(
  redis: RedisClient,
  logger: Logger,
  connection = 'redis',
  countError?: (connection: string) => void,
): void {
  let failing = false;
  let lastWarning = 0;
  let unlogged = 0;
  const onError = (error: Error) => {
    countError?.(connection);
    const now = Date.now();
    if (failing && now - lastWarning < REDIS_WARNING_INTERVAL_MS) {
      unlogged += 1;
      return;
    }
    logger.warn({ err: error.message, connection, unlogged }, 'redis error');
    failing = true;
    lastWarning = now;
    unlogged = 0;
  };
  redis.on('error', onError);
  // A cluster reports a node's connection errors apart from its own.
  if (redis instanceof Cluster) redis.on('node error', onError);
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    logger.info({ connection, unlogged }, 'redis reachable again');
    unlogged = 0;
  });
}

const UNREACHABLE =
  /Stream isn't writeable|Connection is closed|Command timed out|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Cluster isn't ready|None of startup nodes is available|Failed to refresh slots cache/;

/**
 * Whether a command failed because Redis could not be reached (down, restarting, hung, the
 * connection dropped): worth waiting for, unlike an answer refusing the command (a ReplyError).
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof ReplyError) return false;
  const code = (error as { code?: string }).code ?? '';
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    error.name === 'ClusterAllFailedError' ||
    UNREACHABLE.test(error.message) ||
    UNREACHABLE.test(code)
  );
}

const WATCH_EVERY_MS = 500;
const HUNG_AFTER_MS = 1_000;

/**
 * Notices a Redis that stopped answering without closing the connection (paused, overloaded,
 * a network that drops packets): a PING unanswered for a second drops the connection, so every
 * command from then on fails at once (no offline queue) instead of each waiting out its own 2 s
 * time-out, until ioredis reconnects to a Redis that answers. Returns a stop function.
 */
function watchForHungRedis(redis: RedisClient, logger: Logger, connection = 'redis'): () => void {
  let waiting = false;
  const timer = setInterval(() => {
    if (waiting || redis.status !== 'ready') return;
    waiting = true;
    let answered = false;
    const hung = setTimeout(
      () =>
        afterPendingReads(() => {
          if (answered) return;
          logger.warn(
            { connection },
            `redis did not answer a ping within ${HUNG_AFTER_MS} ms: reconnecting`,
          );
          redis.disconnect(true);
        }),
      HUNG_AFTER_MS,
    );
    redis
      .ping()
      .catch(() => undefined)
      .finally(() => {
        answered = true;
        clearTimeout(hung);
        waiting = false;
      });
  }, WATCH_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A service's main Redis connection, once it is ready: its errors logged (and told to
 * `countError`, see logRedisErrors) and a hung Redis dropped (watchForHungRedis). `close` stops
 * the watch and disconnects; a connection that never becomes ready is closed before the rejection.
 */
export async function connectRedis(
  url: string,
  logger: Logger,
  countError?: (connection: string) => void,
): Promise<{ redis: RedisClient; close(): void }> {
  const redis = createRedis(url);
  logRedisErrors(redis, logger, 'redis', countError);
  const stopWatching = watchForHungRedis(redis, logger);
  const close = () => {
    stopWatching();
    redis.disconnect();
  };
  try {
    await waitForRedis(redis);
  } catch (error) {
    close();
    throw error;
  }
  return { redis, close };
}
