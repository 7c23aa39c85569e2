import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const WELL_FORMED = /^[A-Za-z0-9_-]{1,100}$/;
const requestIds = new AsyncLocalStorage<string>();

/**
 * Gives each request an id and runs the rest of it with that id in async context, so its log
 * lines and its calls to the next service carry the id without passing it through every
 * signature. `trustIncoming`: keep a well-formed `X-Request-Id` sent by the caller (between our
 * own services); otherwise a fresh UUID. `expose`: send the id back in `X-Request-Id`.
 */
export function requestContext(options: {
  trustIncoming: boolean;
  expose: boolean;
}): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id =
      options.trustIncoming && typeof incoming === 'string' && WELL_FORMED.test(incoming)
        ? incoming
        : randomUUID();
    res.locals.requestId = id;
    if (options.expose) res.setHeader(REQUEST_ID_HEADER, id);
    requestIds.run(id, next);
  };
}

/** The id of the request being handled, if any. */
export const currentRequestId = (): string | undefined => requestIds.getStore();

/** The id of the request a response belongs to (also outside its async context). */
export const requestIdOf = (res: Response): string | undefined =>
  res.locals.requestId as string | undefined;

/** Headers that pass the current request's id on to the next service. */
export function requestIdHeaders(): Record<string, string> {
  const id = currentRequestId();
  return id ? { [REQUEST_ID_HEADER]: id } : {};
}
