import type { Express, NextFunction, Request, Response, RouterOptions } from 'express';
import { notFound } from './errors';

/**
 * Paths match exactly as documented: `/api/external/V1/usage` or `/usage/` is a 404, not an alias
 * that would work today and silently break with a future route. Case: routers take it as options,
 * the app (whose own router takes no options) as a setting made before its first `use`.
 */
export const EXACT_PATHS: RouterOptions = { caseSensitive: true };

export function matchPathsExactly(app: Express): void {
  app.enable('case sensitive routing');
}

/**
 * Trailing slashes, for every path at once: a router mounted at a path sees both `/x` and `/x/`
 * as its own `/`, so Express's strict routing could not refuse them there.
 */
export function refuseTrailingSlash(req: Request, _res: Response, next: NextFunction): void {
  if (req.path.length > 1 && req.path.endsWith('/')) next(notFound());
  else next();
}
