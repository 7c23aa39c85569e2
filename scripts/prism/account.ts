/**
 * The credentials the Prism check calls with, made with the admin CLI (`scripts/admin.ts`, as
 * docs/operations.md, "Using it" shows): an Enterprise organization whose limits the check never reaches,
 * with two websites, an owner with an access token, and keys for each answer the check asks
 * for (every website, one website only, no read permission); a Free organization (paid plan
 * required) and one allowed a single request per minute (429).
 */
import { admin, text } from '../lib/admin-json';

export interface Website {
  id: string;
  trackingCode: string;
}

export interface Credentials {
  websites: [Website, Website];
  /** read_analytics on every website of the organization. */
  key: string;
  /** read_analytics on the first website only. */
  firstWebsiteKey: string;
  /** track_events only: 403 on every read. */
  noReadKey: string;
  /** A Free organization's key: 403 API_PAID_PLAN_REQUIRED. */
  freePlanKey: string;
  /** An organization allowed one request per minute: its second call is a 429. */
  oneRpmKey: string;
  /** The owner's dashboard access token (webhook management). */
  token: string;
  /** Another user's token, for the per-user limits (20 webhooks, 10 tests a minute). */
  otherToken: string;
}

/** An organization with an owner; `plan` and the options are `org:create`'s. */
async function organization(env: NodeJS.ProcessEnv, name: string, plan: Record<string, string>) {
  const [org, user] = await Promise.all([
    admin(env, 'org:create', { name, ...plan }),
    admin(env, 'user:create', { email: `${name.toLowerCase()}@prism.test` }),
  ]);
  const organizationId = text(org.id, 'an organization id');
  const userId = text(user.id, 'a user id');
  await admin(env, 'member:add', { org: organizationId, user: userId, role: 'owner' });
  const key = async (name: string, options: Record<string, string> = {}) =>
    text(
      (await admin(env, 'key:create', { org: organizationId, user: userId, name, ...options })).key,
      'a key',
    );
  const website = async (name: string): Promise<Website> => {
    const created = await admin(env, 'website:create', {
      org: organizationId,
      name,
      domain: `${name}.prism.test`,
    });
    return {
      id: text(created.id, 'a website id'),
      trackingCode: text(created.trackingCode, 'a tracking code'),
    };
  };
  const token = async () =>
    text((await admin(env, 'token:create', { user: userId, name: 'prism' })).token, 'a token');
  return { key, website, token };
}

export async function createCredentials(env: NodeJS.ProcessEnv): Promise<Credentials> {
  const [main, free, tight, other] = await Promise.all([
    organization(env, 'Main', { plan: 'enterprise', rpm: '100000', monthly: '100000000' }),
    organization(env, 'Free', { plan: 'free' }),
    organization(env, 'Tight', { plan: 'enterprise', rpm: '1', monthly: '100000000' }),
    organization(env, 'Other', { plan: 'pro' }),
  ]);
  const [first, second] = await Promise.all([main.website('first'), main.website('second')]);
  const [key, firstWebsiteKey, noReadKey, freePlanKey, oneRpmKey, token, otherToken] =
    await Promise.all([
      main.key('every website'),
      main.key('first website', { websites: first.id }),
      main.key('no read', { permissions: 'track_events' }),
      free.key('free'),
      tight.key('tight'),
      main.token(),
      other.token(),
    ]);
  return {
    websites: [first, second],
    key,
    firstWebsiteKey,
    noReadKey,
    freePlanKey,
    oneRpmKey,
    token,
    otherToken,
  };
}
