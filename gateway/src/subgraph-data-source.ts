import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { GraphQLError } from 'graphql';
import type { Dispatcher } from 'undici';
import {
  isDroppedConnection,
  postGraphQL,
  type GraphQLAnswer,
} from '../../common/platform/graphql-post';
import { signIdentity, type Audience, type CallerIdentity } from '../../common/contracts/identity';
import { serviceUnavailable } from '../../common/platform/errors';
import type { GatewayContext } from './context';

/**
 * Sends the gateway's subgraph fetches with undici's `request` over a keep-alive pool, signing
 * the caller's identity. @apollo/gateway's RemoteGraphQLDataSource builds a node-fetch Request
 * and goes through make-fetch-happen on every fetch; this does only what the subgraphs need.
 */
export class SubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  constructor(
    private readonly url: string,
    private readonly subgraph: Audience,
    private readonly internalSecret: string,
    private readonly dispatcher: Dispatcher,
  ) {}

  async process(
    options: GraphQLDataSourceProcessOptions<GatewayContext>,
  ): Promise<GatewayGraphQLResponse> {
    const identity: CallerIdentity = (options.context as Partial<GatewayContext>).identity ?? {
      kind: 'anonymous',
    };
    const { query, operationName, variables, extensions } = options.request;
    const body = { query, operationName, variables, extensions };
    const send = () =>
      postGraphQL(
        this.url,
        this.dispatcher,
        body,
        signIdentity(this.internalSecret, identity, { audience: this.subgraph, request: body }),
      );
    let answer: GraphQLAnswer;
    try {
      answer = await send().catch((error: unknown) => {
        // A subgraph instance stopping dropped the connection under it: a read goes out once more.
        if (isRead(query) && isDroppedConnection(error)) return send();
        throw error;
      });
    } catch (error) {
      // Refused, reset or timed out: the subgraph is down or restarting (a 503, not a bug).
      throw serviceUnavailable(this.subgraph, error);
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new GraphQLError(`${answer.status}: subgraph answered with an HTTP error`, {
        extensions: { code: 'SUBREQUEST_HTTP_ERROR', http: { status: answer.status } },
      });
    }
    return JSON.parse(answer.text) as GatewayGraphQLResponse;
  }
}

/** The gateway's subgraph operations start with `query`, `mutation` or a bare selection set. */
const isRead = (query: string | undefined) => query !== undefined && /^\s*(query\b|\{)/.test(query);
