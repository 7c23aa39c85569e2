import { GraphQLError } from 'graphql';

/**
 * Every failure a subgraph reports carries a stable `code` and the HTTP status the facade should
 * answer with. The facade's single error mapper reads both; nothing else formats error bodies.
 */
export class AppError extends GraphQLError {
  /**
   * `httpStatus` travels with the error through the gateway to the facade, which maps it to the
   * REST status. Subgraphs must answer HTTP 200 with errors in the body (otherwise the gateway
   * discards the body), so the `http` extension that sets the response status is opt-in.
   */
  constructor(
    code: string,
    message: string,
    status: number,
    details?: Record<string, unknown>,
    options: { setsResponseStatus?: boolean } = {},
  ) {
    super(message, {
      extensions: {
        code,
        httpStatus: status,
        ...(options.setsResponseStatus ? { http: { status } } : {}),
        ...(details ? { details } : {}),
      },
    });
  }
}

export const unauthenticated = (message = 'Authentication required') =>
  new AppError('UNAUTHENTICATED', message, 401);
export const forbidden = (message = 'Not allowed') => new AppError('forbidden', message, 403);
export const notFound = (what: string) => new AppError('not_found', `${what} not found`, 404);
export const badInput = (message: string, details?: Record<string, unknown>) =>
  new AppError('invalid_parameters', message, 400, details);

/**
 * A service behind this one could not be reached (connection refused or reset, time-out): a 503
 * the caller may retry, not a bug of ours. `setsResponseStatus` for errors raised before execution.
 */
export const serviceUnavailable = (
  service: string,
  cause: unknown,
  options: { setsResponseStatus?: boolean } = {},
) => {
  const error = new AppError(
    'service_unavailable',
    `The ${service} service is unavailable; retry shortly`,
    503,
    undefined,
    options,
  );
  (error as { cause?: unknown }).cause = cause;
  return error;
};
