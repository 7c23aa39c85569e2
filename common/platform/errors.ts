import { GraphQLError } from 'graphql';

export interface AppErrorFields {
  /** Stable and documented: what a client branches on. */
  code: string;
  message: string;
  /** The HTTP status the facade answers with (`extensions.httpStatus`). */
  status: number;
  details?: Record<string, unknown>;
  /**
   * Subgraphs must answer HTTP 200 with errors in the body (otherwise the gateway discards the
   * body), so an error sets the response's own status (Apollo's `http` extension, which Apollo
   * strips from the body) only when asked: for errors raised before execution.
   */
  setsResponseStatus?: boolean;
  /** Logged, never sent. */
  cause?: unknown;
}

/**
 * Every failure a subgraph reports carries a stable `code` and the HTTP status the facade should
 * answer with, `httpStatus`, which travels with the error through the gateway; the facade's
 * single error mapper reads both, and nothing else formats error bodies.
 */
export class AppError extends GraphQLError {
  constructor({ code, message, status, details, setsResponseStatus, cause }: AppErrorFields) {
    super(message, {
      extensions: {
        code,
        httpStatus: status,
        ...(setsResponseStatus ? { http: { status } } : {}),
        ...(details ? { details } : {}),
      },
    });
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

export const unauthenticated = (message = 'Authentication required') =>
  new AppError({ code: 'UNAUTHENTICATED', message, status: 401 });
export const forbidden = (message = 'Not allowed') =>
  new AppError({ code: 'forbidden', message, status: 403 });
export const notFound = (what: string) =>
  new AppError({ code: 'not_found', message: `${what} not found`, status: 404 });
/** Another request holds the lock on the thing being changed: the caller may try again. */
export const beingChanged = (what: string) =>
  new AppError({
    code: 'conflict',
    message: `${what} is being changed by another request; try again`,
    status: 409,
  });
export const badInput = (message: string, details?: Record<string, unknown>) =>
  new AppError({ code: 'invalid_parameters', message, status: 400, details });

/**
 * A service behind this one could not be reached (connection refused or reset, time-out): a 503
 * the caller may retry, not a bug of ours. `setsResponseStatus` for errors raised before execution.
 */
export const serviceUnavailable = (
  service: string,
  cause: unknown,
  options: { setsResponseStatus?: boolean } = {},
) =>
  new AppError({
    code: 'service_unavailable',
    message: `The ${service} service is unavailable; retry shortly`,
    status: 503,
    setsResponseStatus: options.setsResponseStatus,
    cause,
  });
