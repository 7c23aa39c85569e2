import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from './logger';

/**
 * The body of an error answered before any route runs (or instead of one), in the server's own
 * error shape: the facade's envelope, or the gateway's and subgraphs' GraphQL-shaped error.
 */
export type ErrorBody = (status: number, code: string, message: string) => unknown;

/**
 * The error shape of the gateway and the subgraphs for answers that never reached GraphQL: a
 * GraphQL response with one error, its code in GraphQL's upper snake case (`not_found` →
 * `NOT_FOUND`). The status is the response's, not the body's.
 */
export const graphqlErrorBody = (_status: number, code: string, message: string) => ({
  errors: [{ message, extensions: { code: code.toUpperCase() } }],
});

// X-Request-Id is already set: requestContext (expose) runs first in every app that uses these.
function sendJsonError(res: Response, status: number, code: string, message: string): void {
  res.status(status).json(graphqlErrorBody(status, code, message));
}

/**
 * After every route of the gateway and the subgraphs: an unknown path, or a method no route of
 * the path takes, is a JSON 404 rather than Express's HTML page.
 */
export const jsonNotFound: RequestHandler = (req, res) =>
  sendJsonError(res, 404, 'not_found', `No such path: ${req.method} ${req.path}`);

/**
 * The last handler of the gateway's and the subgraphs' Express apps: failures that never reached
 * GraphQL (a body that is not JSON, a bad path) get a GraphQL-shaped JSON error, never Express's
 * HTML page with a stack trace.
 */
export function jsonErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const failure = error as {
      status?: number;
      statusCode?: number;
      type?: string;
      message?: string;
    };
    const status = failure.status ?? failure.statusCode ?? 500;
    if (status >= 500) logger.error({ err: error }, 'unhandled error');
    if (res.headersSent) return;
    const message =
      failure.type === 'entity.parse.failed'
        ? 'The request body is not valid JSON'
        : status < 500
          ? (failure.message ?? 'Bad request')
          : 'Internal error';
    sendJsonError(res, status, status < 500 ? 'bad_request' : 'internal_server_error', message);
  };
}
