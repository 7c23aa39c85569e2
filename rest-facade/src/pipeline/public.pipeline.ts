/**
 * The steps of a key-less route: CORS for any origin, a text body, a per-minute limit per client
 * IP, then the route's own answer (collect/public.handlers.ts). Nothing is counted or logged.
 */
import express, { type Request, type Response } from 'express';
import { perMinuteLimit } from '../../../common/platform/per-minute-limit';
import { rateLimited } from '../errors';
import { normalizeIp } from '../collect/enrich';
import type { PerIpLimit, PublicRoute, PublicServices } from '../routes/route';
import { pipeline, type Step } from './steps';

interface PublicCall {
  readonly req: Request;
  readonly res: Response;
}

/** Readable from any origin; `methods` are the path's, which a preflight is told. */
function openCors(methods: readonly string[]): Step<PublicCall> {
  const allowed = methods.join(', ');
  return ({ res }) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', allowed);
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
    res.setHeader('Access-Control-Max-Age', '86400');
  };
}

function readTextBody(route: PublicRoute): Step<PublicCall> {
  const parse = express.text({ type: [...route.body!.mediaTypes], limit: route.body!.limit });
  return ({ req, res }) =>
    new Promise<void>((resolve, reject) => {
      parse(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
    });
}

/** A per-minute limit per client IP for a key-less route: 429 with Retry-After beyond it. */
function perIpPerMinute(services: PublicServices, limit: PerIpLimit): Step<PublicCall> {
  const { deps } = services;
  const take = perMinuteLimit(
    deps.redis,
    `${deps.config.redisKeyPrefix}rl:${limit.name}`,
    limit.perMinute,
  );
  return async ({ req }) => {
    const seconds = await take(normalizeIp(req.ip ?? ''));
    if (seconds === null) return;
    throw rateLimited(
      `${limit.what} are limited to ${limit.perMinute} requests per minute per IP; retry in ${seconds} seconds`,
      seconds,
    );
  };
}

/** The handler of a public route: its steps, composed once. `methods`: the path's, for CORS. */
export function publicHandler(
  route: PublicRoute,
  services: PublicServices,
  methods: readonly string[],
) {
  const answer = route.answer(services);
  const run = pipeline<PublicCall>([
    ...(route.cors ? [openCors(methods)] : []),
    ...(route.textBody ? [readTextBody(route)] : []),
    ...(route.perIpLimit ? [perIpPerMinute(services, route.perIpLimit)] : []),
    ({ req, res }) => answer(req, res),
  ]);
  return (req: Request, res: Response) => run({ req, res });
}
