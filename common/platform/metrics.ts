import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BaseConfig } from './config';
import { graphqlErrorBody, type ErrorBody } from './json-errors';
import { rejectAfter } from './time-limits';
import type { CacheLookup } from './versioned-cache';

/** Request and operation durations, 1 ms to 10 s: the facade answers most calls in a few ms. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * How long a collect() that asks Redis may take: past it, the scrape goes without that series
 * instead of waiting for an outage to end (Prometheus' own scrape time-out is 10 s).
 */
export const COLLECT_TIMEOUT_MS = 1_000;

/**
 * GraphQL operation names are chosen by callers (on the gateway, by anyone): at most this many
 * become label values, later ones are counted as `other`, so a caller cannot grow the series
 * without bound.
 */
const MAX_OPERATION_NAMES = 200;
const OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;
/** The name of a document's first operation, for requests that do not say which they run. */
const FIRST_OPERATION_NAME = /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

/** The status of a request whose client left before its answer was sent (as in the call log). */
const CLIENT_CLOSED_REQUEST = 499;

/** `res.locals` keys: when the request arrived, and the path its router is mounted at. */
const STARTED_AT = 'metricsStartedAt';
const GRAPHQL_STARTED_AT = 'metricsGraphqlStartedAt';
const MOUNT_PATH = 'metricsMountPath';

/** What XINFO GROUPS says of one consumer group (common/stream-consumer.ts, `backlog()`). */
export interface StreamBacklog {
  stream: string;
  group: string;
  /** Delivered to a consumer and not yet acknowledged. */
  pending: number;
  /** Not yet delivered; null when Redis cannot tell. */
  lag: number | null;
}

/** The process's own series (CPU, memory, event loop, GC): collected once per process. */
let processRegistry: Registry | null = null;

/**
 * The Prometheus registry of one service instance, its `service` label on every series, and the
 * series every service shares. Tests run several stacks in one process, so nothing here uses
 * prom-client's global registry. Parts that record series of their own are given this object
 * and register them on `registry`.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  /**
   * First middleware of an app: `http_request_duration_seconds{method,route,status}` for every
   * request, observed when its response ends. `route` is the pattern that matched (behind
   * `recordMountPath` for routers mounted at a path), `other` when none did.
   */
  readonly httpRequests: RequestHandler;
  private readonly redisErrors: Counter<'connection'>;
  private readonly streams = new Set<{ backlog(): Promise<StreamBacklog> }>();
  private readonly withProcessMetrics: boolean;

  constructor(
    service: string,
    /** Adds the process's series to this service's scrapes; off in tests (one process, many stacks). */
    options: { processMetrics?: boolean } = {},
  ) {
    this.registry.setDefaultLabels({ service });
    this.withProcessMetrics = options.processMetrics === true;
    if (this.withProcessMetrics && !processRegistry) {
      processRegistry = new Registry();
      collectDefaultMetrics({ register: processRegistry });
    }
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status (499: the client left first), until the response ended',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
    // One listener for every request (`this` is the response): nothing but the observation is
    // allocated per request.
    function observe(this: Response): void {
      const req = this.req;
      duration.observe(
        {
          method: req.method,
          route: routeOf(req, this),
          status: this.writableFinished ? this.statusCode : CLIENT_CLOSED_REQUEST,
        },
        (performance.now() - (this.locals[STARTED_AT] as number)) / 1000,
      );
    }
    this.httpRequests = (_req, res, next) => {
      res.locals[STARTED_AT] = performance.now();
      res.on('close', observe);
      next();
    };
    this.redisErrors = new Counter({
      name: 'redis_errors_total',
      help: 'Error events of a Redis connection (while Redis is away, about one per reconnection attempt)',
      labelNames: ['connection'] as const,
      registers: [this.registry],
    });
  }

  /** For common/redis.ts logRedisErrors: counts an error of the connection named so. */
  readonly countRedisError = (connection: string): void => {
    this.redisErrors.inc({ connection });
  };

  /**
   * Mounted at the GraphQL path, before the body is parsed:
   * `graphql_operation_duration_seconds{operation}` by the operation name the request gave, else
   * the name of its document's first operation (`anonymous` without either, `invalid` when it is
   * not a GraphQL name). Call once per service.
   */
  graphqlOperations(): RequestHandler {
    const duration = new Histogram({
      name: 'graphql_operation_duration_seconds',
      help: 'GraphQL requests by operation name, until the response ended',
      labelNames: ['operation'] as const,
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
    const names = new Set<string>();
    const operationLabel = (name: unknown): string => {
      if (typeof name !== 'string' || name === '') return 'anonymous';
      if (names.has(name)) return name;
      if (!OPERATION_NAME.test(name)) return 'invalid';
      if (names.size >= MAX_OPERATION_NAMES) return 'other';
      names.add(name);
      return name;
    };
    function observe(this: Response): void {
      const req = this.req;
      const { operationName, query } = ((req.method === 'GET' ? req.query : req.body) ?? {}) as {
        operationName?: unknown;
        query?: unknown;
      };
      const name =
        operationName ?? (typeof query === 'string' ? FIRST_OPERATION_NAME.exec(query)?.[1] : null);
      duration.observe(
        { operation: operationLabel(name) },
        (performance.now() - (this.locals[GRAPHQL_STARTED_AT] as number)) / 1000,
      );
    }
    return (req, res, next) => {
      res.locals[MOUNT_PATH] = req.baseUrl;
      res.locals[GRAPHQL_STARTED_AT] = performance.now();
      res.on('close', observe);
      next();
    };
  }

  /**
   * `credential_cache_lookups_total{result}` and the hook a credential cache reports to
   * (VersionedCache.reportLookups). Call once per service.
   */
  credentialLookups(): (result: CacheLookup) => void {
    const lookups = new Counter({
      name: 'credential_cache_lookups_total',
      help: 'Credential cache look-ups: hit (cached and current), miss (loaded), outage (Redis away: whether it is current is unknown)',
      labelNames: ['result'] as const,
      registers: [this.registry],
    });
    const labels = {
      hit: { result: 'hit' },
      miss: { result: 'miss' },
      outage: { result: 'outage' },
    } as const;
    for (const set of Object.values(labels)) lookups.inc(set, 0);
    return (result) => lookups.inc(labels[result]);
  }

  /**
   * `read_cache_lookups_total{result}`: how External API reads went through the read cache
   * (hit_local, hit_shared, miss, bypass when Redis could not tell whether an answer is current).
   * Call once.
   */
  readCacheLookups(): (result: 'hit-local' | 'hit-shared' | 'miss' | 'bypass') => void {
    const lookups = new Counter({
      name: 'read_cache_lookups_total',
      help: 'External API reads by how the read cache answered: hit_local, hit_shared (Redis), miss, bypass (Redis could not tell)',
      labelNames: ['result'] as const,
      registers: [this.registry],
    });
    const labels = {
      'hit-local': { result: 'hit_local' },
      'hit-shared': { result: 'hit_shared' },
      miss: { result: 'miss' },
      bypass: { result: 'bypass' },
    } as const;
    for (const set of Object.values(labels)) lookups.inc(set, 0);
    return (result) => lookups.inc(labels[result]);
  }

  /** `mongodb_errors_total` and the hook that counts one (hideInternalErrors). Call once. */
  mongoErrors(): () => void {
    const errors = new Counter({
      name: 'mongodb_errors_total',
      help: 'GraphQL errors answered 503 because MongoDB did not answer',
      registers: [this.registry],
    });
    return () => errors.inc();
  }

  /** `mongodb_circuit_open`: 1 while the circuit (common/mongo-circuit.ts) is open, read on scrape. */
  watchCircuit(circuit: { isOpen(): boolean }): void {
    new Gauge({
      name: 'mongodb_circuit_open',
      help: '1 while MongoDB does not answer and GraphQL requests are refused at once with 503, else 0',
      registers: [this.registry],
      collect() {
        this.set(circuit.isOpen() ? 1 : 0);
      },
    });
  }

  /**
   * Reports a stream consumer's group on every scrape (one XINFO GROUPS per consumer, shared with
   * its readiness probe): `stream_backlog_entries` (pending + lag), `stream_consumer_lag_entries`,
   * `stream_pending_entries`, each `{stream,group}`. A group Redis cannot describe within
   * COLLECT_TIMEOUT_MS is left out of that scrape.
   */
  watchStream(consumer: { backlog(): Promise<StreamBacklog> }): void {
    if (this.streams.size === 0) this.createStreamGauges();
    this.streams.add(consumer);
  }

  private createStreamGauges(): void {
    const streams = this.streams;
    const read = () =>
      Promise.all([...streams].map((s) => withScrapeTimeout(s.backlog()).catch(() => null)));
    const gauge = (name: string, help: string, value: (b: StreamBacklog) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames: ['stream', 'group'] as const,
        registers: [this.registry],
        async collect() {
          const backlogs = await read();
          this.reset();
          for (const backlog of backlogs) {
            const v = backlog && value(backlog);
            if (backlog && v !== null)
              this.set({ stream: backlog.stream, group: backlog.group }, v);
          }
        },
      });
    gauge(
      'stream_backlog_entries',
      'Entries of the stream its consumer group has not handled yet: pending plus lag (absent while Redis cannot tell the lag)',
      (b) => (b.lag === null ? null : b.pending + b.lag),
    );
    gauge(
      'stream_consumer_lag_entries',
      'Entries not yet delivered to the consumer group (XINFO GROUPS lag)',
      (b) => b.lag,
    );
    gauge(
      'stream_pending_entries',
      'Entries delivered to a consumer of the group and not yet acknowledged',
      (b) => b.pending,
    );
  }

  /** The scrape: this service's series, and the process's when asked for. */
  async exposition(): Promise<string> {
    const own = await this.registry.metrics();
    return this.withProcessMetrics && processRegistry
      ? `${own}\n${await processRegistry.metrics()}`
      : own;
  }
}

/**
 * Put in front of a router mounted at a path (`app.use(path, recordMountPath, router)`): its
 * route patterns are labelled with the path in front, also when the answer comes from the app's
 * error handler, by which time Express has reset `req.baseUrl`.
 */
export const recordMountPath: RequestHandler = (req, res, next) => {
  res.locals[MOUNT_PATH] = req.baseUrl;
  next();
};

function routeOf(req: Request, res: Response): string {
  const mount = (res.locals[MOUNT_PATH] as string | undefined) ?? req.baseUrl;
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern !== 'string') return mount || 'other';
  if (!mount) return pattern;
  return pattern === '/' ? mount : mount + pattern;
}

/** Rejects when `promise` takes longer than a collect() may (COLLECT_TIMEOUT_MS). */
export const withScrapeTimeout = <T>(promise: Promise<T>): Promise<T> =>
  rejectAfter(promise, COLLECT_TIMEOUT_MS);

export interface MetricsAccess {
  /** False: `/metrics` is not served on this port (it answers 404). */
  served: boolean;
  /** The bearer token a scrape must present; null when none is asked. */
  token: string | null;
}

/**
 * Who may scrape `/metrics` on a service's port. With METRICS_TOKEN set, every service asks for
 * it. Without it, internal ports (the subgraphs') and every port outside production serve it to
 * anyone, while a public port (the facade's, the gateway's) in production does not serve it.
 */
export function metricsAccess(
  config: Pick<BaseConfig, 'nodeEnv' | 'metricsToken'>,
  port: 'public' | 'internal',
): MetricsAccess {
  const token = config.metricsToken;
  return {
    served: token !== null || port === 'internal' || config.nodeEnv !== 'production',
    token,
  };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics` in Prometheus' text format, as `access` allows. A refused scrape gets a 401 in
 * the service's own error shape (`errorBody`; GraphQL-shaped by default).
 */
export function metricsRouter(
  metrics: ServiceMetrics,
  access: MetricsAccess,
  errorBody: ErrorBody = graphqlErrorBody,
): Router {
  const router = Router({ caseSensitive: true, strict: true });
  if (!access.served) {
    // Answered here: on the gateway the dashboard would take the path as one of its pages.
    router.get('/metrics', (_req, res) => {
      res.status(404).json(errorBody(404, 'not_found', 'Metrics are not served on this port'));
    });
    return router;
  }
  // Compared as digests, so the comparison takes the same time whatever was presented.
  const expected = access.token === null ? null : sha256(access.token);
  router.get('/metrics', (req, res, next) => {
    if (expected) {
      const presented = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (presented === undefined || !timingSafeEqual(sha256(presented), expected)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        res
          .status(401)
          .json(errorBody(401, 'unauthorized', 'Send the metrics token: Authorization: Bearer …'));
        return;
      }
    }
    metrics.exposition().then((text) => {
      res.setHeader('Content-Type', metrics.registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.send(text);
    }, next);
  });
  return router;
}
