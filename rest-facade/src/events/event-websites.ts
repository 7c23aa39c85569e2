import { LRUCache } from 'lru-cache';
import type { KeyContext } from '../auth/api-key-auth';
import { fromGraphQLErrors } from '../error-mapper';
import { notFound } from '../errors';
import type { GatewayClient } from '../gateway-client';
import { GetWebsiteDocument } from '../generated/operations';
import { keyIdentity } from '../pipeline/call-operation';
import { canBeId } from '../routes/path-ids';

/** How long a key's access to a website, once confirmed, is taken as given. */
const CONFIRMED_FOR_MS = 60_000;

/**
 * Whether a key may send events of a website: the same rule as reading it (its organization's,
 * and among the key's websites when it was limited to some), asked of the keys subgraph through
 * the persisted GetWebsite operation as the key, and kept for a minute per key and website.
 */
export class EventWebsites {
  private readonly confirmed = new LRUCache<string, true>({ max: 10_000, ttl: CONFIRMED_FOR_MS });

  constructor(private readonly gateway: GatewayClient) {}

  /** Resolves when the key may; 404 for an unknown website, 403 for one beyond its reach. */
  async confirm(key: KeyContext, websiteId: string): Promise<void> {
    if (!canBeId(websiteId)) throw notFound('Website not found');
    const pair = `${key.keyId}\n${websiteId}`;
    if (this.confirmed.has(pair)) return;
    const result = await this.gateway.execute(
      GetWebsiteDocument,
      { id: websiteId },
      { identity: keyIdentity(key) },
    );
    if (result.errors.length > 0 || !result.data?.website) throw fromGraphQLErrors(result.errors);
    this.confirmed.set(pair, true);
  }
}
