/**
 * Admin CLI for operators, tests and demos. Prints one JSON object on stdout; on any error prints
 * a clear message on stderr and exits non-zero. Talks to the keys database and Redis directly
 * through the keys subgraph's own services (same rules, same events).
 *
 *   npm run --silent admin -- org:create --name Acme --plan pro
 */
import { Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { PERMISSIONS, type Permission } from '../common/contracts/identity';
import { parseIsoInstant } from '../common/platform/iso-instant';
import { PLANS, type PlanName } from '../subgraphs/keys/src/plans';
import type { Expiration } from '../subgraphs/keys/src/services/credential.service';
import { issueLoginLink } from '../subgraphs/keys/src/services/sign-in.service';
import { withKeysStores, type KeysStores } from './lib/keys-stores';
import { readStackRecord } from './lib/stack-record';

const withServices = <T>(work: (stores: KeysStores) => Promise<T>) => withKeysStores('admin', work);

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError('must be a positive whole number');
  return n;
};

const plan = (value: string): PlanName => {
  if (!(PLANS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${PLANS.join(', ')}`);
  return value as PlanName;
};

const email = (value: string) => {
  if (!z.email().safeParse(value).success)
    throw new InvalidArgumentError('must be an email address');
  return value;
};

const permissions = (value: string): Permission[] => {
  const list = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = list.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
  if (unknown.length > 0 || list.length === 0)
    throw new InvalidArgumentError(`must be a comma-separated list of ${PERMISSIONS.join(', ')}`);
  return list as Permission[];
};

/** `all` stays a word: commander would turn a parser's null into the option's raw string. */
const websites = (value: string): string[] | 'all' => {
  if (value === 'all') return 'all';
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0)
    throw new InvalidArgumentError('must be all or comma-separated website ids');
  return ids;
};

const expires = (value: string): Expiration => {
  if (value === 'never' || value === '1y' || value === '90d') return value;
  const date = parseIsoInstant(value);
  if (!date)
    throw new InvalidArgumentError(
      'must be never, 1y, 90d or an ISO-8601 date or date-time with offset',
    );
  return date;
};

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};
const apiKeyJson = (k: {
  id: string;
  name: string;
  prefix: string;
  permissions: string[];
  websiteAccess: string;
  websiteIds: string[];
  expiresAt: Date | null;
  createdAt: Date;
}) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  permissions: k.permissions,
  websites: k.websiteAccess === 'all' ? 'all' : k.websiteIds,
  expiresAt: k.expiresAt?.toISOString() ?? null,
  createdAt: k.createdAt.toISOString(),
});

const program = new Command('admin')
  .description('Operator commands for organizations, users, websites, keys and tokens')
  .exitOverride();

program
  .command('org:create')
  .requiredOption('--name <name>')
  .requiredOption('--plan <plan>', 'free|pro|scale|enterprise', plan)
  .option('--rpm <n>', 'custom requests per minute (enterprise)', positiveInt)
  .option('--monthly <n>', 'custom requests per month (enterprise)', positiveInt)
  .action((o: { name: string; plan: PlanName; rpm?: number; monthly?: number }) =>
    withServices(async ({ accounts }) => {
      const custom =
        o.rpm || o.monthly ? { requestsPerMinute: o.rpm, requestsPerMonth: o.monthly } : undefined;
      const org = await accounts.createOrganization({
        name: o.name,
        plan: o.plan,
        customLimits: custom,
      });
      print({ id: org.id, name: org.name, plan: org.plan, limits: org.limits });
    }),
  );

program
  .command('user:create')
  .requiredOption('--email <email>', 'email address', email)
  .action((o: { email: string }) =>
    withServices(async ({ accounts }) => print(await accounts.createUser(o.email))),
  );

program
  .command('member:add')
  .requiredOption('--org <id>')
  .requiredOption('--user <id>')
  .option('--role <role>', 'owner|admin|member', (v) => {
    if (!['owner', 'admin', 'member'].includes(v))
      throw new InvalidArgumentError('must be owner, admin or member');
    return v as 'owner' | 'admin' | 'member';
  })
  .action((o: { org: string; user: string; role?: 'owner' | 'admin' | 'member' }) =>
    withServices(async ({ accounts }) =>
      print(await accounts.addMember(o.org, o.user, o.role ?? 'member')),
    ),
  );

program
  .command('member:remove')
  .requiredOption('--org <id>')
  .requiredOption('--user <id>')
  .action((o: { org: string; user: string }) =>
    withServices(async ({ accounts }) => {
      await accounts.removeMember(o.org, o.user);
      print({ organizationId: o.org, userId: o.user, removed: true });
    }),
  );

program
  .command('website:create')
  .requiredOption('--org <id>')
  .requiredOption('--name <name>')
  .requiredOption('--domain <domain>')
  .action((o: { org: string; name: string; domain: string }) =>
    withServices(async ({ accounts }) => {
      const website = await accounts.createWebsite({
        organizationId: o.org,
        name: o.name,
        domain: o.domain,
      });
      print({
        id: website.id,
        trackingCode: website.trackingCode,
        name: website.name,
        domain: website.domain,
      });
    }),
  );

program
  .command('key:create')
  .requiredOption('--org <id>')
  .requiredOption('--user <id>')
  .requiredOption('--name <name>')
  .option('--description <text>')
  .option('--permissions <list>', PERMISSIONS.join(','), permissions)
  .option('--websites <all|ids>', 'all, or comma-separated website ids', websites)
  .option('--expires <when>', 'never|1y|90d|ISO-8601 (default 1y)', expires)
  .action(
    (o: {
      org: string;
      user: string;
      name: string;
      description?: string;
      permissions?: Permission[];
      websites?: string[] | 'all';
      expires?: Expiration;
    }) =>
      withServices(async ({ credentials }) => {
        const { key, apiKey } = await credentials.createApiKey({
          organizationId: o.org,
          userId: o.user,
          name: o.name,
          description: o.description ?? null,
          permissions: o.permissions,
          websiteIds: o.websites === undefined || o.websites === 'all' ? null : o.websites,
          expiration: o.expires ?? '1y',
        });
        print({ ...apiKeyJson(apiKey), key });
      }),
  );

program
  .command('key:regenerate')
  .requiredOption('--id <id>')
  .action((o: { id: string }) =>
    withServices(async ({ credentials }) => {
      const { key, apiKey } = await credentials.regenerateApiKey(o.id);
      print({ ...apiKeyJson(apiKey), key });
    }),
  );

program
  .command('key:delete')
  .requiredOption('--id <id>')
  .action((o: { id: string }) =>
    withServices(async ({ credentials }) => {
      await credentials.deleteApiKey(o.id);
      print({ id: o.id, deleted: true });
    }),
  );

program
  .command('token:create')
  .requiredOption('--user <id>')
  .option('--name <name>', 'label', 'cli')
  .action((o: { user: string; name: string }) =>
    withServices(async ({ credentials }) =>
      print(await credentials.createAccessToken(o.user, o.name)),
    ),
  );

program
  .command('token:list')
  .requiredOption('--user <id>')
  .action((o: { user: string }) =>
    withServices(async ({ credentials }) =>
      print({ tokens: await credentials.accessTokensOfUser(o.user) }),
    ),
  );

program
  .command('token:revoke')
  .requiredOption('--id <id>')
  .action((o: { id: string }) =>
    withServices(async ({ credentials }) => {
      await credentials.revokeAccessToken(o.id);
      print({ id: o.id, revoked: true });
    }),
  );

program
  .command('login:link')
  .description(
    "a one-time link (15 minutes) that signs the user in to the dashboard: the running npm start's, else DASHBOARD_URL",
  )
  .requiredOption('--email <email>', 'the user to sign in', email)
  .action((o: { email: string }) =>
    withServices(async ({ models }) => {
      const dashboard = (
        process.env.DASHBOARD_URL ??
        readStackRecord()?.dashboardUrl ??
        'http://127.0.0.1:4000'
      ).replace(/\/+$/, '');
      const token = await issueLoginLink(models, o.email);
      if (!token) throw new Error(`no user with email ${o.email}`);
      print({ url: `${dashboard}/sign-in?token=${encodeURIComponent(token)}` });
    }),
  );

program.parseAsync(process.argv).catch((error: unknown) => {
  const code = (error as { code?: unknown }).code;
  if (code === 'commander.helpDisplayed' || code === 'commander.version') process.exit(0);
  // Commander has already printed its own message for usage errors.
  if (!(typeof code === 'string' && code.startsWith('commander.')))
    process.stderr.write(
      `admin: ${error instanceof Error ? error.message.split('\n').join('; ') : String(error)}\n`,
    );
  process.exit(1);
});
