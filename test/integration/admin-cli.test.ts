import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/lib/engines';
import { writeEngineRecord } from '../../scripts/lib/stack-record';
import { adminFailure, runAdmin } from '../support/admin-cli';
import { callApi } from '../support/api-client';
import { http } from '../support/http';
import { npmStartEnv, StackProcess } from '../support/npm-start';
import { expectMatchesOpenApi } from '../support/openapi';
import { startStack, testMongoUri, type Stack } from '../support/stack';

describe('admin CLI', () => {
  // Each command is a new process that compiles and connects before it works: several seconds
  // each when the rest of the suite keeps both cores busy.
  jest.setTimeout(90_000);
  let stack: Stack;
  let env: Record<string, string>;
  beforeAll(async () => {
    stack = await startStack('admin-cli', { WEBHOOK_WORKERS_ENABLED: 'false' });
    env = {
      MONGODB_URI: testMongoUri(`${stack.id}_keys`),
      REDIS_URL: stack.env.REDIS_URL!,
      REDIS_KEY_PREFIX: stack.env.REDIS_KEY_PREFIX!,
    };
  });
  afterAll(() => stack.stop());

  const admin = async (...args: string[]) => {
    const { stdout } = await runAdmin(env, ...args);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]!) as Record<string, string>;
  };
  const adminFails = (...args: string[]) => adminFailure(env, ...args);

  it('when an operator sets up an account and a key with the CLI, then the key works against the API and dies with key:delete', async () => {
    const org = await admin('org:create', '--name', 'Acme', '--plan', 'scale');
    const user = await admin(
      'user:create',
      '--email',
      `ops-${randomBytes(3).toString('hex')}@example.test`,
    );
    await admin('member:add', '--org', org.id!, '--user', user.id!, '--role', 'owner');
    const website = await admin(
      'website:create',
      '--org',
      org.id!,
      '--name',
      'Shop',
      '--domain',
      'shop.example',
    );
    expect(website.trackingCode).toMatch(/^wa-/);
    const createKey = (name: string, ...options: string[]) =>
      admin('key:create', '--org', org.id!, '--user', user.id!, '--name', name, ...options);
    const created = await createKey('ci', '--websites', website.id!, '--expires', '90d');
    expect(created.key).toMatch(/^svc_/);
    const listed = await callApi<{ data: { websites: Array<{ id: string }> } }>(
      stack,
      'GET',
      '/websites',
      { key: created.key },
    );
    expect(listed.body.data.websites.map((w) => w.id)).toEqual([website.id]);
    const regenerated = await admin('key:regenerate', '--id', created.id!);
    expect((await callApi(stack, 'GET', '/websites', { key: created.key })).status).toBe(401);
    await admin('key:delete', '--id', created.id!);
    expect((await callApi(stack, 'GET', '/websites', { key: regenerated.key })).status).toBe(401);
    const token = await admin('token:create', '--user', user.id!);
    expect(token.token).toMatch(/^wat_/);
    const tokens = await admin('token:list', '--user', user.id!);
    expect(tokens).toEqual({
      tokens: [expect.objectContaining({ id: token.id, name: 'cli', prefix: token.prefix })],
    });
    expect(JSON.stringify(tokens)).not.toContain(token.token);
    await admin('token:revoke', '--id', token.id!);
    expect(await admin('token:list', '--user', user.id!)).toEqual({ tokens: [] });

    // --websites all, as the README shows it, gives a key for every website.
    const second = await admin(
      'website:create',
      '--org',
      org.id!,
      '--name',
      'Blog',
      '--domain',
      'blog.example',
    );
    const everywhere = await createKey('all', '--websites', 'all');
    expect(everywhere.websites).toBe('all');
    const all = await callApi<{ data: { websites: Array<{ id: string }> } }>(
      stack,
      'GET',
      '/websites',
      {
        key: everywhere.key,
      },
    );
    expect(all.body.data.websites.map((w) => w.id).sort()).toEqual([website.id, second.id].sort());
  });

  it('AUTH-3: when an operator removes a member, then their key is refused at once, and the last owner cannot be removed', async () => {
    const org = await admin('org:create', '--name', 'Leavers', '--plan', 'pro');
    const email = () => `leaver-${randomBytes(3).toString('hex')}@example.test`;
    const owner = await admin('user:create', '--email', email());
    const leaver = await admin('user:create', '--email', email());
    await admin('member:add', '--org', org.id!, '--user', owner.id!, '--role', 'owner');
    await admin('member:add', '--org', org.id!, '--user', leaver.id!);
    await admin('website:create', '--org', org.id!, '--name', 'Shop', '--domain', 'shop.example');
    const { key } = await admin(
      'key:create',
      '--org',
      org.id!,
      '--user',
      leaver.id!,
      '--name',
      'laptop',
    );
    const websites = () => callApi<{ error: { code: string } }>(stack, 'GET', '/websites', { key });
    expect((await websites()).status).toBe(200);

    expect(await admin('member:remove', '--org', org.id!, '--user', leaver.id!)).toEqual({
      organizationId: org.id,
      userId: leaver.id,
      removed: true,
    });
    const refused = await websites();
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');

    const lastOwner = await adminFails('member:remove', '--org', org.id!, '--user', owner.id!);
    expect(lastOwner.stderr).toMatch(/at least one owner/);
    const again = await adminFails('member:remove', '--org', org.id!, '--user', leaver.id!);
    expect(again.stderr).toMatch(/Membership not found/);
  });

  it('when the last two owners are removed at the same time, then the organization keeps an owner', async () => {
    const { accounts } = stack.keys.services;
    for (let round = 0; round < 3; round += 1) {
      const org = await accounts.createOrganization({ name: 'Racing owners', plan: 'pro' });
      const first = await accounts.createUser(
        `first-${randomBytes(3).toString('hex')}@example.test`,
      );
      const second = await accounts.createUser(
        `second-${randomBytes(3).toString('hex')}@example.test`,
      );
      await accounts.addMember(org.id, first.id, 'owner');
      await accounts.addMember(org.id, second.id, 'owner');

      const outcomes = await Promise.allSettled([
        accounts.removeMember(org.id, first.id),
        accounts.removeMember(org.id, second.id),
      ]);
      const owners = (await accounts.membershipsOfOrganization(org.id)).filter(
        (m) => m.role === 'owner',
      );
      expect(owners.length).toBeGreaterThanOrEqual(1);
      // Each removal either happened or was refused for the last owner, never half of each.
      const removed = outcomes.filter((o) => o.status === 'fulfilled').length;
      expect(owners).toHaveLength(2 - removed);
      for (const outcome of outcomes)
        if (outcome.status === 'rejected')
          expect((outcome.reason as Error).message).toMatch(/at least one owner/);
    }
  });

  it('when the last owner is removed while also being made a plain member, then the organization keeps an owner', async () => {
    const { accounts } = stack.keys.services;
    for (let round = 0; round < 5; round += 1) {
      const org = await accounts.createOrganization({ name: 'Leaving and staying', plan: 'pro' });
      const owner = await accounts.createUser(
        `both-${randomBytes(3).toString('hex')}@example.test`,
      );
      await accounts.addMember(org.id, owner.id, 'owner');
      await Promise.allSettled([
        accounts.removeMember(org.id, owner.id),
        accounts.addMember(org.id, owner.id, 'member'),
      ]);
      const roles = (await accounts.membershipsOfOrganization(org.id)).map((m) => m.role);
      expect(roles).toContain('owner');
    }
  });

  it('when the last owner would be made a plain member, then that is refused and they stay owner', async () => {
    const { accounts } = stack.keys.services;
    const org = await accounts.createOrganization({ name: 'Demotion', plan: 'pro' });
    const owner = await accounts.createUser(`owner-${randomBytes(3).toString('hex')}@example.test`);
    await accounts.addMember(org.id, owner.id, 'owner');

    await expect(accounts.addMember(org.id, owner.id, 'member')).rejects.toThrow(
      /at least one owner/,
    );
    expect(await accounts.membershipsOfOrganization(org.id)).toEqual([
      expect.objectContaining({ userId: owner.id, role: 'owner' }),
    ]);

    const successor = await accounts.createUser(
      `next-${randomBytes(3).toString('hex')}@example.test`,
    );
    await accounts.addMember(org.id, successor.id, 'owner');
    await accounts.addMember(org.id, owner.id, 'admin');
    const roles = (await accounts.membershipsOfOrganization(org.id)).map((m) => [m.userId, m.role]);
    expect(roles.sort()).toEqual(
      [
        [owner.id, 'admin'],
        [successor.id, 'owner'],
      ].sort(),
    );
  });

  it.each([
    [['org:create', '--name', 'X', '--plan', 'gold'], /plan/],
    [['user:create', '--email', 'not-an-email'], /email/],
    [
      ['key:create', '--org', 'nope', '--user', 'nope', '--name', 'x'],
      /Organization not found|User not found|member/,
    ],
    [
      ['key:create', '--org', 'a', '--user', 'b', '--name', 'x', '--expires', 'yesterday'],
      /expires/,
    ],
    [
      ['key:create', '--org', 'a', '--user', 'b', '--name', 'x', '--expires', '2099-02-31'],
      /expires.*ISO-8601/,
    ],
    [['key:delete', '--id', '000000000000000000000000'], /API key not found/],
    [['key:create', '--org', 'a', '--user', 'b', '--name', 'x', '--websites', ','], /websites/],
  ])(
    'when the input is wrong (%j), then it exits non-zero with a message on stderr and nothing on stdout',
    async (args, message) => {
      const failure = await adminFails(...args);
      expect(failure.code).not.toBe(0);
      expect(failure.stdout).toBe('');
      expect(failure.stderr).toMatch(message);
    },
  );
});

describe('admin CLI beside npm start', () => {
  // npm start's own five processes (from source), then a dozen admin processes.
  jest.setTimeout(180_000);
  let stack: StackProcess;
  let elsewhere: string;
  beforeAll(async () => {
    stack = StackProcess.fromSource(await npmStartEnv('admin-npm-start'));
    await stack.waitForLog('press Ctrl+C to stop', 150_000);
    elsewhere = mkdtempSync(path.join(tmpdir(), 'wa-admin-no-stack-'));
  });
  afterAll(async () => {
    await stack.stop();
    stack.removeDataDir();
    rmSync(elsewhere, { recursive: true, force: true });
  });

  /** An owner and a key made with admin under `env`; admin's stderr lines with them. */
  const keyMadeWith = async (env: Record<string, string>) => {
    const json = async (...args: string[]) => {
      const { stdout, stderr } = await runAdmin(env, ...args);
      return Object.assign(JSON.parse(stdout) as Record<string, string>, { stderr });
    };
    const org = await json('org:create', '--name', 'Newcomer', '--plan', 'pro');
    const user = await json(
      'user:create',
      '--email',
      `newcomer-${randomBytes(3).toString('hex')}@example.test`,
    );
    await json('member:add', '--org', org.id!, '--user', user.id!, '--role', 'owner');
    const created = await json('key:create', '--org', org.id!, '--user', user.id!, '--name', 'k');
    return { key: created.key!, stderr: created.stderr };
  };

  const websitesWith = async (key: string) => {
    const url = `${stack.url('rest-facade')}/api/external/v1/websites`;
    const response = await http(url, { headers: { 'x-api-key': key } });
    expectMatchesOpenApi('GET', url, response);
    return response;
  };

  it('when MONGODB_URI names no database, then admin writes to wa_keys, where npm start reads, and the key works against its facade', async () => {
    const { key, stderr } = await keyMadeWith({
      MONGODB_URI: stack.env.MONGODB_URI!,
      REDIS_URL: stack.env.REDIS_URL!,
      REDIS_KEY_PREFIX: stack.env.REDIS_KEY_PREFIX!,
      STACK_DATA_DIR: elsewhere,
    });
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^admin: keys database mongodb:\/\/\S+\/wa_keys \(MONGODB_URI\)/),
    ]);
    expect((await websitesWith(key)).status).toBe(200);
  });

  it('when nothing is set, then admin uses the running npm start, says so, and its key works', async () => {
    const { key, stderr } = await keyMadeWith({ STACK_DATA_DIR: stack.env.STACK_DATA_DIR! });
    expect(stderr).toMatch(/keys database mongodb:\/\/\S+\/wa_keys \(the running npm start \(pid/);
    expect(stderr).toContain(stack.env.REDIS_KEY_PREFIX);
    expect((await websitesWith(key)).status).toBe(200);
  });

  it('when npm start is not running and the engine it last started does not answer, then admin refuses and names that engine', async () => {
    const port = await freePort();
    const stopped = path.join(elsewhere, 'stopped');
    writeEngineRecord(
      { kind: 'ferretdb', port, pid: 0, dataDir: stopped, startedAt: new Date().toISOString() },
      path.join(stopped, 'engine.json'),
    );
    const failure = await adminFailure(
      { STACK_DATA_DIR: stopped },
      'user:create',
      '--email',
      'nobody@example.test',
    );
    expect(failure.code).toBe(1);
    expect(failure.stdout).toBe('');
    expect(failure.stderr).toContain(`the ferretdb it last started (127.0.0.1:${port}`);
    expect(failure.stderr).toContain('npm start');
  });
});
