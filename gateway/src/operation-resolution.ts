import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext } from './context';
import { operationNotResolved } from './errors';

/**
 * A document whose operation cannot be picked (an unknown operationName, or several operations
 * and none named) is the caller's mistake: 400 OPERATION_RESOLUTION_FAILURE, as Apollo Server
 * answers without a gateway. Left to @apollo/gateway, its executor throws an error without a code,
 * which Apollo answers with 500 and the engine logs as a bug.
 */
export function operationResolution(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, request }) {
          if (operation) return;
          throw operationNotResolved(request.operationName);
        },
      };
    },
  };
}
