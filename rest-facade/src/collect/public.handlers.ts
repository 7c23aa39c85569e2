/**
 * The answers of the public routes that the collector serves (routes/public.routes.ts declares
 * them; CORS, the body and the per-IP limits are steps of the public pipeline).
 */
import type { Request, Response } from 'express';
import {
  invalidJson,
  invalidParameters,
  unknownTrackingCode,
  upstreamUnavailable,
} from '../errors';
import { sendSuccess } from '../envelope';
import type { PublicServices } from '../routes/route';
import { collectPayloadSchema, describeIssues } from './collect.schema';
import { notCountedReason } from './collector.service';
import { enrich, normalizeIp } from './enrich';
import { LIVE_WINDOW_MS } from './event-stream';
import { TRACKER_SCRIPT } from './tracker-script';

/** Read only when TRUSTED_PROXIES is set: the proxy (e.g. Cloudflare) puts the visitor's country here. */
export const COUNTRY_HEADER = 'cf-ipcountry';

export const trackerScript = () => (_req: Request, res: Response) => {
  res
    .type('application/javascript')
    .setHeader('Cache-Control', 'public, max-age=3600')
    .send(TRACKER_SCRIPT);
};

/** One event from the tracking script, read as text (beacons send text/plain). */
export function collectEvent({ deps, collector }: PublicServices) {
  const trustProxy = deps.config.trustedProxies !== '';
  return async (req: Request, res: Response): Promise<void> => {
    if (typeof req.body !== 'string' || req.body === '')
      throw invalidParameters('Send the event as a JSON body (text/plain or application/json)');
    let json: unknown;
    try {
      json = JSON.parse(req.body);
    } catch {
      throw invalidJson();
    }
    const parsed = collectPayloadSchema.safeParse(json);
    if (!parsed.success) throw invalidParameters(describeIssues(parsed.error));
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
  };
}

/** Distinct visitors of the last 5 minutes on the website with this tracking code. */
export function liveVisitors({ collector }: PublicServices) {
  return async (req: Request, res: Response): Promise<void> => {
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
  };
}
