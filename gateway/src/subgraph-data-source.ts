import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { GraphQLError } from 'graphql';
import { request, type Dispatcher } from 'undici';
import { signIdentity, type Audience, type CallerIdentity } from '../../common/identity';
import { serviceUnavailable } from '../../common/errors';
import { requestIdHeaders } from '../../common/request-context';
import type { GatewayContext } from './context';

/**
 * Sends the gateway's subgraph fetches with undici's `request` over a keep-alive pool, signing
 * the caller's identity. @apollo/gateway's RemoteGraphQLDataSource builds a node-fetch Request
 * and goes through make-fetch-happen on every fetch; this does only what the subgraphs need.
 */
export class SubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  constructor(
    private readonly url: string,
    private readonly subgraph: Exclude<Audience, 'gateway'>,
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
    let response: Awaited<ReturnType<typeof request>>;
    let text: string;
    try {
      response = await request(this.url, {
        method: 'POST',
        dispatcher: this.dispatcher,
        headers: {
          'content-type': 'application/json',
          ...requestIdHeaders(),
          ...signIdentity(this.internalSecret, identity, {
            audience: this.subgraph,
            request: body,
          }),
        },
        body: JSON.stringify(body),
      });
      text = await response.body.text();
    } catch (error) {
      // Refused, reset or timed out: the subgraph is down or restarting (a 503, not a bug).
      throw serviceUnavailable(this.subgraph, error);
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new GraphQLError(`${response.statusCode}: subgraph answered with an HTTP error`, {
        extensions: { code: 'SUBREQUEST_HTTP_ERROR', http: { status: response.statusCode } },
      });
    }
    return JSON.parse(text) as GatewayGraphQLResponse;
  }
}
