import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * Gives every response an id that the facade's log lines for it carry too, so a caller reporting
 * a failure can be matched to its log lines (docs/api.md, "Request ids").
 */
export function assignRequestId(): RequestHandler {
  return (_req, res, next) => {
    const id = randomUUID();
    res.locals.requestId = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    next();
  };
}

export const requestIdOf = (res: Response): string | undefined =>
  res.locals.requestId as string | undefined;
