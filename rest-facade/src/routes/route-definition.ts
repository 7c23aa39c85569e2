import type { Request } from 'express';
import type { Permission } from '../../../common/identity';
import type { KeyContext } from '../auth/api-key-auth';
import type { LimitDecision } from '../limits/usage-limiter';

/** What a route's presenter may use besides the operation's data. */
export interface CallContext {
  key: KeyContext;
  usage: LimitDecision;
}

export interface RouteDefinition {
  method: 'get' | 'post';
  /** Express path under /api/external/v1. */
  path: string;
  /** Name of the persisted operation in rest-facade/operations. */
  operation: string;
  /** The query parameters it accepts, as the OpenAPI document lists them; any other is a 400. */
  query: readonly string[];
  /** Permission the key needs; checked by the facade before the operation runs. */
  permission?: Permission;
  /** Builds the operation's variables; throws `invalidParameters` (400) on bad input. */
  variables(req: Request): Record<string, unknown>;
  /** Picks the REST `data` out of the operation's result. */
  present(data: Record<string, unknown>, call: CallContext): unknown;
}
