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

/** The dashboard's sign-in routes answer `{error:{code,message}}` with these (gateway/src/sign-in.ts). */
export class SignInError extends Error {
  readonly status: number;
  readonly code: string;

  constructor({ status, code, message }: { status: number; code: string; message: string }) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const signInNeedsJson = () =>
  new SignInError({ status: 415, code: 'unsupported_media_type', message: 'Send a JSON body' });
export const linksNotMailedHere = () =>
  new SignInError({
    status: 503,
    code: 'email_sign_in_unavailable',
    message: 'Sign-in links cannot be mailed here; ask an operator for one',
  });
export const invalidEmail = () =>
  new SignInError({ status: 400, code: 'invalid_email', message: 'Enter a valid email' });
export const tooManyLinks = () =>
  new SignInError({
    status: 429,
    code: 'too_many_requests',
    message: 'Too many sign-in links; wait a little',
  });
export const invalidLoginLink = () =>
  new SignInError({
    status: 401,
    code: 'invalid_login_link',
    message: 'This sign-in link is unknown, already used or expired; ask for a new one',
  });
/** The link may have been used up before the failure (SignInService.redeem): say what to do. */
export const sessionNotOpened = () =>
  new SignInError({
    status: 503,
    code: 'service_unavailable',
    message:
      'Signing in failed; open the link again shortly, and if it is refused, ask for a new sign-in link',
  });
export const signInUnavailable = () =>
  new SignInError({
    status: 503,
    code: 'service_unavailable',
    message: 'Sign-in is unavailable; try again shortly',
  });
