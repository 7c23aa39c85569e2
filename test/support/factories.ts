import type { Stack } from './stack';
import type { PlanName } from '../../subgraphs/keys/src/plans';
import type { CreateApiKeyInput } from '../../subgraphs/keys/src/services/credential.service';

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${(sequence += 1)}`;

/** An organization with a member and a website, made through the keys subgraph's own services. */
export async function buildAccount(
  stack: Stack,
  overrides: {
    plan?: PlanName;
    websites?: number;
    customLimits?: { requestsPerMinute?: number; requestsPerMonth?: number };
  } = {},
) {
  const { accounts } = stack.keys.services;
  const organization = await accounts.createOrganization({
    name: `Org ${unique()}`,
    plan: overrides.plan ?? 'pro',
    customLimits: overrides.customLimits,
  });
  const user = await accounts.createUser(`user-${unique()}@example.test`);
  await accounts.addMember(organization.id, user.id, 'owner');
  const websites = [];
  for (let i = 0; i < (overrides.websites ?? 1); i += 1) {
    websites.push(
      await accounts.createWebsite({
        organizationId: organization.id,
        name: `Site ${i}`,
        domain: `site${i}-${unique()}.example`,
      }),
    );
  }
  return { organization, user, websites };
}

export async function buildApiKey(
  stack: Stack,
  account: Awaited<ReturnType<typeof buildAccount>>,
  overrides: Partial<CreateApiKeyInput> = {},
) {
  return stack.keys.services.credentials.createApiKey({
    organizationId: account.organization.id,
    userId: account.user.id,
    name: `key-${unique()}`,
    ...overrides,
  });
}

export async function buildAccessToken(stack: Stack, userId: string) {
  return stack.keys.services.credentials.createAccessToken(userId, `token-${unique()}`);
}
