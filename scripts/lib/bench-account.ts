import type { Stack } from '../../test/support/stack';
import type { Site } from './bench-traffic';

/**
 * The account a benchmark runs as: an Enterprise organization whose custom limits the load never
 * reaches (every request does the full work and succeeds), its owner, and an API key; `site`
 * adds a website to it.
 */
export async function benchAccount(stack: Stack) {
  const { accounts, credentials } = stack.keys.services;
  const organization = await accounts.createOrganization({
    name: 'Bench',
    plan: 'enterprise',
    customLimits: { requestsPerMinute: 100_000_000, requestsPerMonth: 1_000_000_000 },
  });
  const user = await accounts.createUser(`bench-${Date.now()}@example.com`);
  await accounts.addMember(organization.id, user.id, 'owner');
  const { key } = await credentials.createApiKey({
    organizationId: organization.id,
    userId: user.id,
    name: 'bench',
  });
  const site = (name: string): Promise<Site> =>
    accounts.createWebsite({ organizationId: organization.id, name, domain: `${name}.example` });
  return { key, site };
}
