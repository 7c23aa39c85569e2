import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { GraphQLError, Kind, type DocumentNode } from 'graphql';
import type { CallerIdentity } from '../../common/contracts/identity';
import type { Logger } from '../../common/platform/logger';
import type { OperationManifest } from '../../common/contracts/persisted-operations';
import { hideInternalErrors } from '../../common/platform/graphql-errors';
import type { GatewayEngine } from '../../gateway/src/engine';

export interface GraphQLErrorPayload {
  message: string;
  extensions?: { code?: string; httpStatus?: number; details?: unknown };
}

/**
 * Who an operation runs for: an identity the facade established itself (an API key it checked,
 * its own service identity), or a credential for the engine's authenticator to resolve (a key
 * seen for the first time, a dashboard access token).
 */
export type Caller = { identity: CallerIdentity } | { credential: string };

export interface GatewayResult<T> {
  data: T | null;
  errors: GraphQLErrorPayload[];
}

/**
 * Runs persisted operations on the supergraph engine this process embeds (the gateway's own,
 * gateway/src/engine.ts): the operation's id and variables, never its text, with the caller's
 * identity as context. In process rather than over HTTP to the gateway service, so an API call
 * costs no extra hop (docs/api.md, "The facade runs the gateway's engine").
 */
export class GatewayClient {
  private readonly ids: Map<string, string>;

  constructor(
    private readonly engine: GatewayEngine,
    manifest: OperationManifest,
    private readonly logger: Logger,
  ) {
    this.ids = new Map(manifest.operations.map((op) => [op.name, op.id]));
  }

  /**
   * Runs a persisted operation: named, or given as its generated document
   * (src/generated/operations.ts), which stands for the manifest's operation of the same name and
   * types its variables and data. Given a name, `TData` is what the data is taken to be.
   */
  async execute<
    TData = Record<string, unknown>,
    TVariables extends Record<string, unknown> = Record<string, unknown>,
  >(
    operation: string | TypedDocumentNode<TData, TVariables>,
    variables: TVariables,
    caller: Caller,
  ): Promise<GatewayResult<TData>> {
    const operationName = typeof operation === 'string' ? operation : operationNameOf(operation);
    const id = this.ids.get(operationName);
    if (!id) throw new Error(`operation ${operationName} is not in the manifest`);
    const identified = 'identity' in caller ? caller : await this.identify(caller.credential);
    if ('errors' in identified) return { data: null, errors: identified.errors };
    const { identity } = identified;
    const response = await this.engine.apollo.executeOperation<TData>(
      { operationName, variables, extensions: { persistedQuery: { version: 1, sha256Hash: id } } },
      { contextValue: { identity } },
    );
    if (response.body.kind !== 'single') throw new Error(`${operationName} answered incrementally`);
    const { data, errors } = response.body.singleResult;
    return { data: data ?? null, errors: (errors ?? []) as GraphQLErrorPayload[] };
  }

  /**
   * Who a credential is, as the engine's authenticator resolves it; a refused credential (401,
   * 403) or its store unreachable (503) as the errors the gateway service answers then.
   */
  async identify(
    credential: string,
  ): Promise<{ identity: CallerIdentity } | { errors: GraphQLErrorPayload[] }> {
    try {
      return { identity: await this.engine.authenticator.identify(credential) };
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      const formatted = hideInternalErrors(error.toJSON(), error, this.logger);
      return { errors: [formatted as GraphQLErrorPayload] };
    }
  }
}

export function operationNameOf(document: DocumentNode): string {
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION && definition.name)
      return definition.name.value;
  throw new Error('the document holds no named operation');
}
