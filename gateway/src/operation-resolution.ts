import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { GraphQLError } from 'graphql';
import type { GatewayContext } from './context';

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
          throw new GraphQLError(
            request.operationName
              ? `Unknown operation named "${request.operationName}".`
              : 'Must provide operation name if query contains multiple operations.',
            {
              extensions: {
                code: ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE,
                http: { status: 400 },
              },
            },
          );
        },
      };
    },
  };
}
