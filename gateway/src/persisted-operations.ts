import type { ApolloServerPlugin } from '@apollo/server';
import { InMemoryLRUCache, type KeyValueCache } from '@apollo/utils.keyvaluecache';
import { persistedOperationRequired } from './errors';
import type { OperationManifest } from '../../common/contracts/persisted-operations';
import type { GatewayContext } from './context';

/**
 * Apollo's APQ store, pre-filled with the manifest: a caller sends only the operation's
 * SHA-256 id. Dashboard callers may still register their own (bounded LRU).
 */
export class ManifestCache implements KeyValueCache<string> {
  private readonly manifest: Map<string, string>;
  private readonly registered = new InMemoryLRUCache<string>({ maxSize: 5 * 1024 * 1024 });

  constructor(manifest: OperationManifest) {
    this.manifest = new Map(manifest.operations.map((op) => [op.id, op.body]));
  }

  has(id: string): boolean {
    return this.manifest.has(id);
  }

  async get(key: string): Promise<string | undefined> {
    return this.manifest.get(stripPrefix(key)) ?? this.registered.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    if (!this.manifest.has(stripPrefix(key))) await this.registered.set(key, value);
  }

  async delete(key: string): Promise<boolean | void> {
    return this.registered.delete(key);
  }
}

const stripPrefix = (key: string) => (key.startsWith('apq:') ? key.slice(4) : key);

/** API-key callers may run only the manifest's operations; dashboards and tools may run any. */
export function manifestOnlyForApiKeys(cache: ManifestCache): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        // Thrown here (not earlier), Apollo answers with the error's own status instead of a 500.
        async didResolveOperation({ contextValue, queryHash }) {
          if (contextValue.identity.kind === 'apiKey' && !cache.has(queryHash)) {
            throw persistedOperationRequired();
          }
        },
      };
    },
  };
}
