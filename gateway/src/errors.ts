import { ApolloServerErrorCode } from '@apollo/server/errors';
import { GraphQLError } from 'graphql';
import { AppError, serviceUnavailable } from '../../common/platform/errors';

/**
 * The gateway's own errors. Authentication and the persisted-operation rule run before execution,
 * so each sets the gateway's HTTP status too (`setsResponseStatus`).
 */

export const invalidApiKey = () =>
  new AppError({
    code: 'invalid_api_key',
    message: 'The API key is missing, malformed, unknown or no longer valid',
    status: 401,
    setsResponseStatus: true,
  });
export const invalidToken = () =>
  new AppError({
    code: 'invalid_access_token',
    message: 'The access token is missing, unknown or revoked',
    status: 401,
    setsResponseStatus: true,
  });
/**
 * The key was identified though refused: its id travels in `details` so the facade can log the
 * call under the key (the REST body of these errors carries no details).
 */
export const keyExpired = (keyId: string) =>
  new AppError({
    code: 'key_expired',
    message: 'The API key has expired; create a new key in the dashboard',
    status: 401,
    details: { keyId },
    setsResponseStatus: true,
  });
export const paidPlanRequired = (keyId: string) =>
  new AppError({
    code: 'API_PAID_PLAN_REQUIRED',
    message: 'The External API requires a Pro, Scale or Enterprise plan',
    status: 403,
    details: { keyId },
    setsResponseStatus: true,
  });

export const apiKeysAtTheRestApi = () =>
  new AppError({
    code: 'api_key_not_accepted_here',
    message:
      'API keys are accepted by the External API (/api/external/v1), where limits and quotas apply',
    status: 403,
    setsResponseStatus: true,
  });

export const persistedOperationRequired = () =>
  new AppError({
    code: 'PERSISTED_QUERY_REQUIRED',
    message: 'API keys may run only persisted operations',
    status: 403,
    setsResponseStatus: true,
  });

/** The keys subgraph, which resolves credentials, could not be reached: a 503 the caller may retry. */
export const keysUnavailable = (cause: unknown) =>
  serviceUnavailable('keys', cause, { setsResponseStatus: true });

/**
 * A document whose operation cannot be picked, answered as Apollo Server answers it without a
 * gateway (its code, its message, HTTP 400; gateway/src/operation-resolution.ts).
 */
export const operationNotResolved = (operationName: string | null | undefined) =>
  new GraphQLError(
    operationName
      ? `Unknown operation named "${operationName}".`
      : 'Must provide operation name if query contains multiple operations.',
    {
      extensions: {
        code: ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE,
        http: { status: 400 },
      },
    },
  );
