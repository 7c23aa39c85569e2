/**
 * The read cache's part in an External API call (docs/scaling.md, "Cached reads"): which data the
 * answer depends on, what names the request, and how the answer goes out. The call is still
 * authenticated, limited, checked and logged as any other (api-key.pipeline.ts).
 */
import type { Request, Response } from 'express';
import { siteTag, type ReadTag } from '../../../common/contracts/read-cache';
import type { KeyContext } from '../auth/api-key-auth';
import type { Generation, ReadCache, ReadLookup } from '../cache/read-cache';
import { sendSuccessJson } from '../envelope';
import { param } from '../routes/common';
import { canBeId } from '../routes/path-ids';
import type { ApiKeyRoute } from '../routes/route';
import { started } from './steps';

export interface CachedRead {
  readonly tag: ReadTag;
  /** Read with the call's first Redis round trip (the key check and the limits). */
  readonly generation: Promise<Generation>;
  lookup?: ReadLookup;
}

const HOUR_MS = 3_600_000;

/**
 * Starts reading the generation of what the route's answer depends on; null for a path id that
 * cannot be one, which is answered 404 with nothing read (routes/path-ids.ts).
 */
export function startCachedRead(
  route: ApiKeyRoute,
  cache: ReadCache,
  req: Request,
): CachedRead | null {
  if (route.idParam && !canBeId(param(req, route.idParam.name))) return null;
  // An analytics answer shows nothing of the accounts but the website's id: whether the caller
  // may read the website is decided before the cache, and its scope is part of the key.
  const tag = route.cache === 'website' ? siteTag(param(req, 'websiteId')) : 'accounts';
  return { tag, generation: started(cache.generation(tag)) };
}

/**
 * Everything that changes the answer besides the tagged data: the operation, its variables and
 * what the key may see (its user, organization, websites and permissions). Analytics answers also
 * name the hour, since their ranges ("the last 24 hours") move with the clock.
 */
export function requestKey(
  route: ApiKeyRoute,
  variables: Record<string, unknown>,
  key: KeyContext,
): string {
  const scope = `${key.userId}|${key.organizationId}|${key.websiteIds?.join(',') ?? '*'}|${key.permissions.join(',')}`;
  const hour = route.cache === 'website' ? Math.floor(Date.now() / HOUR_MS) : '';
  return `${route.operationId} ${JSON.stringify(variables)} ${scope} ${hour}`;
}

/**
 * Sends the answer with its `X-Cache` state: HIT (served from the cache), MISS (computed, and
 * now stored), BYPASS (computed; Redis could not say whether a cached answer was current).
 */
export function sendThroughCache(res: Response, read: CachedRead, answer: CachedAnswer): void {
  if ('body' in answer) {
    res.setHeader('X-Cache', 'HIT');
    sendSuccessJson(res, answer.body);
    return;
  }
  const body = JSON.stringify(answer.presented);
  if (read.lookup?.result === 'miss') {
    read.lookup.store(body);
    res.setHeader('X-Cache', 'MISS');
  } else res.setHeader('X-Cache', 'BYPASS');
  sendSuccessJson(res, body);
}

/** A cached answer's body, or the REST `data` just presented. */
export type CachedAnswer = { body: string } | { presented: unknown };
