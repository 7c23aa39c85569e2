import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { requestIdOf } from '../../../common/platform/request-context';
import type { CallRecord } from '../../../common/contracts/call-log';
import type { CallLogWriter } from '../call-log/call-log.writer';
import { API_BASE } from '../routes/common';
import { callEntryOf, type CallEntry } from './call-entry';

/**
 * Nginx's code for a request whose client went away before the answer: such a call may already
 * have counted toward the limits, so it is logged too.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Records every External API call made with a key (timestamp, endpoint, status, IP, key) once its
 * response is done: sent, or cut short because the client closed the connection ('close' fires in
 * both cases, 'finish' only in the first). A call without an identified key (none, malformed or
 * unknown, or a path that is not the API's) is not recorded (CallLogWriter.record says why).
 */
export function callLogger(callLog: CallLogWriter, base = API_BASE): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    // Read now: once the client has gone, the socket no longer knows its address.
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    res.on('close', () => {
      const at = Date.now();
      const status = res.writableFinished ? res.statusCode : CLIENT_CLOSED_REQUEST;
      const durationMs = Math.round((performance.now() - started) * 100) / 100;
      const path = req.originalUrl.split('?', 1)[0]!;
      const entry = callEntryOf(res);
      const build = (): CallRecord => {
        entry.onRecorded?.();
        return {
          at,
          keyId: entry.keyId,
          method: req.method,
          endpoint: req.route ? `${base}${String(req.route.path).replace(/^\/$/, '')}` : path,
          path,
          status,
          ip,
          durationMs,
          requestId: requestIdOf(res) ?? null,
          usage: entry.usage,
        };
      };
      // A route's handler may still be checking the key when the client leaves: the record waits
      // for it, so it carries the key the call was counted for.
      const answering = entry.stillAnswering();
      if (answering) callLog.recordAfter(answering, build);
      else callLog.record(build());
    });
    next();
  };
}

/**
 * Marks the call as being answered while `handler` runs: a client that leaves meanwhile still
 * gets its call logged under the key it was counted for (callLogger waits for it).
 */
export function loggedWhenAnswered(
  handler: (req: Request, res: Response, entry: CallEntry) => Promise<void>,
): (req: Request, res: Response) => Promise<void> {
  return (req, res) => {
    const entry = callEntryOf(res);
    return entry.whileAnswering(() => handler(req, res, entry));
  };
}
