import { Agent, request } from 'undici';
import type { OperationManifest } from '../../common/persisted-operations';
import { requestIdHeaders } from '../../common/request-context';
import { upstreamUnavailable } from './api-error';

export interface GraphQLErrorPayload {
  message: string;
  extensions?: { code?: string; httpStatus?: number; details?: unknown };
}

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

  constructor(
    private readonly url: string,
    manifest: OperationManifest,
  ) {
    this.ids = new Map(manifest.operations.map((op) => [op.name, op.id]));
  }

  async execute<T>(
    operationName: string,
    variables: Record<string, unknown>,
    credentialHeaders: Record<string, string>,
  ): Promise<GatewayResult<T>> {
    const id = this.ids.get(operationName);
    if (!id) throw new Error(`operation ${operationName} is not in the manifest`);
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(this.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          ...requestIdHeaders(),
          ...credentialHeaders,
        },
        body: JSON.stringify({
          operationName,
          variables,
          extensions: { persistedQuery: { version: 1, sha256Hash: id } },
        }),
      });
    } catch (error) {
      // Connection refused, reset or timed out: the gateway is down or restarting.
      throw upstreamUnavailable(error);
    }
    const text = await response.body.text();
    let body: { data?: T | null; errors?: GraphQLErrorPayload[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new Error(`gateway answered HTTP ${response.statusCode} with a non-JSON body`);
    }
    return { data: body.data ?? null, errors: body.errors ?? [] };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
