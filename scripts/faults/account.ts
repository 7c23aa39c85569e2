/**
 * The account the load runs as, made with the admin CLI (`scripts/admin.ts`, as
 * docs/operations.md, "Using it" shows): an Enterprise organization whose custom limits the load never reaches, its owner,
 * an access token (to read call logs through the gateway) and a probe key for the suite's own
 * reads. Each scenario gets a fixture of its own — two websites and a key — so its call log and
 * its counts hold its own traffic only.
 */
import { admin as runAdmin, text } from '../lib/admin-json';
import { PROJECT_NODE } from './services';

const admin = (env: NodeJS.ProcessEnv, command: string, options: Record<string, string>) =>
  runAdmin(env, command, options, PROJECT_NODE);

export interface Website {
  id: string;
  trackingCode: string;
  domain: string;
}

export interface Fixture {
  /** The owner's access token (webhook management). */
  token: string;
  keyId: string;
  key: string;
  /** Page views go to the first until the fault is over, then to the second. */
  websites: [Website, Website];
}

export interface Account {
  organizationId: string;
  userId: string;
  /** A dashboard access token of the owner (GraphQL on the gateway). */
  token: string;
  /** A key for the suite's own reads, kept out of the scenarios' call logs. */
  probeKey: string;
  fixture(name: string): Promise<Fixture>;
}

export async function createAccount(env: NodeJS.ProcessEnv): Promise<Account> {
  const org = await admin(env, 'org:create', {
    name: 'F',
    plan: 'enterprise',
    rpm: '100000',
    monthly: '100000000',
  });
  const organizationId = text(org.id, 'an organization id');
  const user = await admin(env, 'user:create', { email: 'faults@faults.test' });
  const userId = text(user.id, 'a user id');
  await admin(env, 'member:add', { org: organizationId, user: userId, role: 'owner' });
  const newKey = (name: string) =>
    admin(env, 'key:create', { org: organizationId, user: userId, name, expires: 'never' });
  const website = async (name: string, domain: string): Promise<Website> => {
    const created = await admin(env, 'website:create', { org: organizationId, name, domain });
    return {
      id: text(created.id, 'a website id'),
      trackingCode: text(created.trackingCode, 'a tracking code'),
      domain,
    };
  };
  const [created, probe] = await Promise.all([
    admin(env, 'token:create', { user: userId, name: 'faults' }),
    newKey('probe'),
  ]);
  const token = text(created.token, 'an access token');
  return {
    organizationId,
    userId,
    token,
    probeKey: text(probe.key, 'a key'),
    async fixture(name) {
      const domain = `${name.replaceAll('_', '-')}.faults.test`;
      const [first, second, key] = await Promise.all([
        website(`${name} (during)`, domain),
        website(`${name} (after)`, `after.${domain}`),
        newKey(name),
      ]);
      return {
        token,
        keyId: text(key.id, 'a key id'),
        key: text(key.key, 'a key'),
        websites: [first, second],
      };
    },
  };
}
