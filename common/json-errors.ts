import type { ErrorRequestHandler } from 'express';
import type { Logger } from './logger';

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
    res.status(status).json({
      errors: [
        { message, extensions: { code: status < 500 ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR' } },
      ],
    });
  };
}
