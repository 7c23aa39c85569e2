/**
 * Starts what the dashboard suite drives: a throw-away database engine (as the jest suite does),
 * the five services in this process, and one account to sign in with. The specs read the
 * addresses from the environment, which Playwright's workers inherit.
 */
import jestGlobalSetup from '../support/global-setup';
import jestGlobalTeardown from '../support/global-teardown';
import { startStack, testMongoUri } from '../support/stack';

export default async function globalSetup(): Promise<() => Promise<void>> {
  await jestGlobalSetup();
  const stack = await startStack('e2e', {
    // The suite's webhook receiver listens on loopback.
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  const { accounts } = stack.keys.services;
  const organization = await accounts.createOrganization({ name: 'Acme Analytics', plan: 'pro' });
  const user = await accounts.createUser(`e2e-${stack.id.toLowerCase()}@example.test`);
  await accounts.addMember(organization.id, user.id, 'owner');
  const website = await accounts.createWebsite({
    organizationId: organization.id,
    name: 'Shop',
    domain: 'shop.example.test',
  });
  Object.assign(process.env, {
    E2E_DASHBOARD_URL: stack.gateway.url,
    E2E_FACADE_URL: stack.facade.url,
    E2E_EMAIL: user.email,
    E2E_USER_ID: user.id,
    E2E_WEBSITE_ID: website.id,
    E2E_KEYS_MONGODB_URI: testMongoUri(`${stack.id}_keys`),
    E2E_REDIS_URL: stack.env.REDIS_URL,
    E2E_REDIS_KEY_PREFIX: stack.env.REDIS_KEY_PREFIX,
  });
  return async () => {
    await stack.stop();
    await jestGlobalTeardown();
  };
}
