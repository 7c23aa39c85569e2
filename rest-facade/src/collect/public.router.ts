import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { perMinuteLimit } from '../../../common/per-minute-limit';
import {
  ApiError,
  invalidJson,
  rateLimited,
  rejectOtherMethods,
  upstreamUnavailable,
} from '../api-error';
import type { FacadeDeps } from '../deps';
import { sendSuccess } from '../envelope';
import { COLLECT_BODY_LIMIT_BYTES, collectPayloadSchema, describeIssues } from './collect.schema';
import { notCountedReason, type CollectorService } from './collector.service';
import { enrich, normalizeIp } from './enrich';
import { LIVE_WINDOW_MS } from './event-stream';
import { TRACKER_SCRIPT } from './tracker-script';
import { EXACT_PATHS } from '../exact-paths';

/** Requests per minute one IP may make to GET /live/{trackingCode}. */
export const LIVE_REQUESTS_PER_MINUTE = 60;
/**
 * Events per minute one IP may post to /api/collect: far above what one browser sends (a page
 * view, some clicks and replay chunks), low enough that one host cannot flood the raw-event store.
 */
export const COLLECT_EVENTS_PER_MINUTE = 600;
/** Read only when TRUSTED_PROXIES is set: the proxy (e.g. Cloudflare) puts the visitor's country here. */
export const COUNTRY_HEADER = 'cf-ipcountry';

const unknownTrackingCode = () =>
  new ApiError(404, 'unknown_tracking_code', 'No website has this tracking code');

/** The methods each public path serves: in its CORS answers, and in the Allow of a 405. */
const METHODS = {
  tracker: ['GET', 'HEAD'],
  collect: ['POST', 'OPTIONS'],
  live: ['GET', 'HEAD', 'OPTIONS'],
};

function openCors(methods: readonly string[]) {
  const allowed = methods.join(', ');
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', allowed);
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
    res.setHeader('Access-Control-Max-Age', '86400');
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}

/** A per-minute limit per client IP for a key-less route: 429 with Retry-After beyond it. */
function perIpPerMinute(deps: FacadeDeps, name: string, points: number, what: string) {
  const take = perMinuteLimit(deps.redis, `${deps.config.redisKeyPrefix}rl:${name}`, points);
  return async (req: Request): Promise<void> => {
    const seconds = await take(normalizeIp(req.ip ?? ''));
    if (seconds === null) return;
    throw rateLimited(
      `${what} are limited to ${points} requests per minute per IP; retry in ${seconds} seconds`,
      seconds,
    );
  };
}

/** Public, key-less routes: the collection endpoint, the tracking script and live visitors. */
export function createPublicRouter(deps: FacadeDeps, collector: CollectorService): Router {
  const trustProxy = deps.config.trustedProxies !== '';
  const limitLive = perIpPerMinute(deps, 'live', LIVE_REQUESTS_PER_MINUTE, 'Live visitor counts');
  const limitCollect = perIpPerMinute(deps, 'collect', COLLECT_EVENTS_PER_MINUTE, 'Events');
  const router = Router(EXACT_PATHS);

  router.get('/tracker.js', openCors(METHODS.tracker), (_req, res) => {
    res
      .type('application/javascript')
      .setHeader('Cache-Control', 'public, max-age=3600')
      .send(TRACKER_SCRIPT);
  });

  const collectCors = openCors(METHODS.collect);
  router.options('/api/collect', collectCors);
  router.post(
    '/api/collect',
    collectCors,
    // Beacons arrive as text/plain (no CORS preflight); fetch clients may send application/json.
    express.text({ type: ['text/plain', 'application/json'], limit: COLLECT_BODY_LIMIT_BYTES }),
    async (req: Request, res: Response) => {
      await limitCollect(req);
      if (typeof req.body !== 'string' || req.body === '')
        throw new ApiError(
          400,
          'invalid_parameters',
          'Send the event as a JSON body (text/plain or application/json)',
        );
      let json: unknown;
      try {
        json = JSON.parse(req.body);
      } catch {
        throw invalidJson();
      }
      const parsed = collectPayloadSchema.safeParse(json);
      if (!parsed.success)
        throw new ApiError(400, 'invalid_parameters', describeIssues(parsed.error));
      const userAgent = req.get('user-agent') ?? '';
      // Known bots are answered 202 like everyone else, counted nowhere, and told why.
      const notCounted = notCountedReason(userAgent);
      if (notCounted) {
        res.status(202).json({ accepted: false, reason: notCounted });
        return;
      }
      const websiteId = await collector.websiteOf(parsed.data.trackingCode);
      if (!websiteId) throw unknownTrackingCode();
      const now = Date.now();
      const event = enrich(parsed.data, {
        websiteId,
        ip: normalizeIp(req.ip ?? ''),
        userAgent,
        countryHeader: trustProxy ? req.get(COUNTRY_HEADER) : undefined,
        salt: await collector.dailySalt(now),
        now,
      });
      // In the stream, or held for it while Redis is away (then a 503 once too many are held).
      await collector.append(event);
      res.status(202).json({ accepted: true });
    },
  );

  const liveCors = openCors(METHODS.live);
  router.options('/live/:trackingCode', liveCors);
  router.get('/live/:trackingCode', liveCors, async (req: Request, res: Response) => {
    await limitLive(req);
    const trackingCode = String(req.params.trackingCode);
    const websiteId = /^[\w-]{1,64}$/.test(trackingCode)
      ? await collector.websiteOf(trackingCode)
      : null;
    if (!websiteId) throw unknownTrackingCode();
    // Presence lives in Redis only: while it is away there is no count to give.
    const visitors = await collector.liveVisitors(websiteId, Date.now()).catch((error: unknown) => {
      throw upstreamUnavailable(error);
    });
    res.setHeader('Cache-Control', 'public, max-age=10');
    sendSuccess(res, {
      tracking_code: trackingCode,
      visitors,
      window_seconds: LIVE_WINDOW_MS / 1000,
    });
  });

  // Like the External API: another method on a known path is a 405 naming what is allowed.
  router.all('/tracker.js', rejectOtherMethods(METHODS.tracker));
  router.all('/api/collect', rejectOtherMethods(METHODS.collect));
  router.all('/live/:trackingCode', rejectOtherMethods(METHODS.live));

  return router;
}
