import { Agent } from 'undici';
import { isDroppedConnection, postGraphQL, type GraphQLAnswer } from '../../common/graphql-post';
import { FACADE_SERVICE_IDENTITY, signIdentity, type GraphQLBody } from '../../common/identity';
import type { OperationManifest } from '../../common/persisted-operations';
import { upstreamUnavailable } from './api-error';

export interface GraphQLErrorPayload {
  message: string;
  extensions?: { code?: string; httpStatus?: number; details?: unknown };
}

/**
 * How a call authenticates to the gateway: headers (a presented key or token), or headers made
 * for the request about to be sent (an identity signed for it, common/identity.ts).
 */
export type GatewayCredentials =
  Record<string, string> | ((request: GraphQLBody) => Record<string, string>);

/** The facade calling on its own behalf (resolving a key, a tracking code), signed per request. */
export const asFacade =
  (internalSecret: string, headers: Record<string, string> = {}): GatewayCredentials =>
  (request) => ({
    ...headers,
    ...signIdentity(internalSecret, FACADE_SERVICE_IDENTITY, { audience: 'gateway', request }),
  });

export interface GatewayResult<T> {
  data: T | null;
  errors: GraphQLErrorPayload[];
}

/**
 * Sends persisted operations to the gateway: the operation's id and variables, never its text.
 */
export class GatewayClient {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 128 });
  private readonly ids: Map<string, string>;
  private readonly reads: Set<string>;

  constructor(
    private readonly url: string,
    manifest: OperationManifest,
  ) {
    this.ids = new Map(manifest.operations.map((op) => [op.name, op.id]));
    this.reads = new Set(
      manifest.operations.filter((op) => op.type === 'query').map((op) => op.name),
    );
  }

  async execute<T>(
    operationName: string,
    variables: Record<string, unknown>,
    credentials: GatewayCredentials,
  ): Promise<GatewayResult<T>> {
    const id = this.ids.get(operationName);
    if (!id) throw new Error(`operation ${operationName} is not in the manifest`);
    const operation = {
      operationName,
      variables,
      extensions: { persistedQuery: { version: 1, sha256Hash: id } },
    };
    const send = () =>
      postGraphQL(
        this.url,
        this.agent,
        operation,
        typeof credentials === 'function' ? credentials(operation) : credentials,
      );
    let answer: GraphQLAnswer;
    try {
      answer = await send().catch((error: unknown) => {
        // A gateway instance stopping dropped the connection under it: a read goes out once more,
        // on another connection (to another instance behind a balancer).
        if (this.reads.has(operationName) && isDroppedConnection(error)) return send();
        throw error;
      });
    } catch (error) {
      // Connection refused, reset or timed out: the gateway is down or restarting.
      throw upstreamUnavailable(error);
    }
    let body: { data?: T | null; errors?: GraphQLErrorPayload[] };
    try {
      body = JSON.parse(answer.text) as typeof body;
    } catch {
      throw new Error(`gateway answered HTTP ${answer.status} with a non-JSON body`);
    }
    return { data: body.data ?? null, errors: body.errors ?? [] };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
