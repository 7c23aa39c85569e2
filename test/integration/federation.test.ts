import { signIdentity } from '../../common/contracts/identity';
import { buildAccessToken, buildAccount } from '../support/factories';
import { buildPageview, ingestEvents } from '../support/ingest';
import { graphql } from '../support/http';
import { startStack, type Stack } from '../support/stack';

describe('gateway: one query across three subgraphs', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('federation');
  });
  afterAll(() => stack.stop());

  it('when a dashboard token asks for its user, websites, traffic and webhooks, then each subgraph contributes its fields', async () => {
    const account = await buildAccount(stack, { plan: 'scale', websites: 2 });
    const [first, second] = account.websites;
    await ingestEvents(
      stack,
      Array.from({ length: 7 }, () => buildPageview(first!.id)),
    );
    await stack.webhooks.services.webhooks.create({
      userId: account.user.id,
      url: 'https://hooks.example/a',
      secretCiphertext: 'x',
    });
    const { token } = await buildAccessToken(stack, account.user.id);

    const response = await graphql<{
      me: {
        email: string;
        webhooks: Array<{ url: string }>;
        memberships: Array<{
          role: string;
          organization: {
            plan: string;
            websites: Array<{ id: string; trackingCode: string; totalPageviews: number }>;
          };
        }>;
      };
    }>(
      stack.gateway.graphqlUrl,
      `
        query {
          me {
            email
            webhooks {
              url
            }
            memberships {
              role
              organization {
                plan
                websites {
                  id
                  trackingCode
                  totalPageviews
                }
              }
            }
          }
        }
      `,
      {},
      { authorization: `Bearer ${token}` },
    );

    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const me = response.body.data!.me;
    expect(me.email).toBe(account.user.email);
    expect(me.webhooks).toEqual([{ url: 'https://hooks.example/a' }]);
    expect(me.memberships).toHaveLength(1);
    expect(me.memberships[0]!.role).toBe('OWNER');
    expect(me.memberships[0]!.organization.plan).toBe('SCALE');
    expect(me.memberships[0]!.organization.websites).toEqual([
      { id: first!.id, trackingCode: first!.trackingCode, totalPageviews: 7 },
      { id: second!.id, trackingCode: second!.trackingCode, totalPageviews: 0 },
    ]);
  });

  it('when the credential is unknown, then the gateway answers 401 before any subgraph runs', async () => {
    const response = await graphql(
      stack.gateway.graphqlUrl,
      '{ me { email } }',
      {},
      { authorization: `Bearer wat_${'A'.repeat(43)}` },
    );
    expect(response.status).toBe(401);
    expect(response.body.errors?.[0]?.extensions?.code).toBe('invalid_access_token');
  });

  it("AUTH-3: when a dashboard token asks for another organization's website, then forbidden, worded for a user", async () => {
    const owner = await buildAccount(stack, { plan: 'pro' });
    const outsider = await buildAccount(stack, { plan: 'pro' });
    const query = 'query ($id: ID!) { website(id: $id) { id name } }';
    const ask = async (userId: string) =>
      graphql<{ website: { id: string } | null }>(
        stack.gateway.graphqlUrl,
        query,
        { id: owner.websites[0]!.id },
        { authorization: `Bearer ${(await buildAccessToken(stack, userId)).token}` },
      );

    const member = await ask(owner.user.id);
    const stranger = await ask(outsider.user.id);

    expect(member.body.data?.website?.id).toBe(owner.websites[0]!.id);
    expect(stranger.body.data?.website).toBeNull();
    expect(stranger.body.errors?.[0]).toMatchObject({
      message: 'You are not a member of the organization that owns this website',
      extensions: { code: 'forbidden' },
    });
  });

  it('AUTH-3: when a caller reaches a website by its public tracking code, then neither its organization nor its figures come with it, whoever asks', async () => {
    const owner = await buildAccount(stack, { plan: 'pro' });
    const outsider = await buildAccount(stack, { plan: 'pro' });
    const site = owner.websites[0]!;
    await ingestEvents(
      stack,
      Array.from({ length: 3 }, () => buildPageview(site.id)),
    );
    const query = `query ($code: String!) {
      websiteByTrackingCode(trackingCode: $code) {
        id
        organization { name members { user { email } } }
        totalPageviews
        overview(range: LAST_7_DAYS) { summary { pageviews } }
      }
    }`;
    type Answer = {
      websiteByTrackingCode: {
        id: string;
        organization: unknown;
        totalPageviews: number;
        overview: unknown;
      } | null;
    };
    const ask = async (headers: Record<string, string>) =>
      graphql<Answer>(stack.gateway.graphqlUrl, query, { code: site.trackingCode }, headers);
    const bearer = async (userId: string) => ({
      authorization: `Bearer ${(await buildAccessToken(stack, userId)).token}`,
    });

    for (const answer of [await ask({}), await ask(await bearer(outsider.user.id))]) {
      expect(answer.body.data?.websiteByTrackingCode).toBeNull();
      expect(answer.body.errors?.map((e) => e.extensions?.code)).toEqual(
        expect.arrayContaining(['forbidden']),
      );
      expect(JSON.stringify(answer.body)).not.toContain(owner.user.email);
    }
    // Not even the website's own fields: its name is a dashboard label, not public.
    for (const headers of [{}, await bearer(outsider.user.id)]) {
      const own = await graphql<{ websiteByTrackingCode: unknown }>(
        stack.gateway.graphqlUrl,
        'query ($code: String!) { websiteByTrackingCode(trackingCode: $code) { id name createdAt } }',
        { code: site.trackingCode },
        headers,
      );
      expect(own.body.data?.websiteByTrackingCode).toBeNull();
      expect(own.body.errors?.[0]?.extensions?.code).toBe('forbidden');
    }
    const member = await ask(await bearer(owner.user.id));
    expect(member.body.errors).toBeUndefined();
    expect(member.body.data?.websiteByTrackingCode).toMatchObject({
      id: site.id,
      totalPageviews: 3,
      overview: { summary: { pageviews: expect.any(Number) } },
    });
  });

  it("AUTH-3: when a member lists a co-member's memberships, then they get nothing of the co-member's other teams", async () => {
    const shared = await buildAccount(stack, { plan: 'pro' });
    const elsewhere = await buildAccount(stack, { plan: 'scale' });
    const coMember = await buildAccount(stack, { plan: 'pro' });
    await stack.keys.services.accounts.addMember(
      shared.organization.id,
      coMember.user.id,
      'member',
    );
    await stack.keys.services.accounts.addMember(
      elsewhere.organization.id,
      coMember.user.id,
      'member',
    );
    const { token } = await buildAccessToken(stack, shared.user.id);
    const response = await graphql<{
      organization: {
        members: Array<{
          user: { id: string; memberships: Array<{ organization: { id: string } }> };
        }>;
      };
    }>(
      stack.gateway.graphqlUrl,
      `
        query ($id: ID!) {
          organization(id: $id) {
            members {
              user {
                id
                memberships {
                  organization {
                    id
                  }
                }
              }
            }
          }
        }
      `,
      { id: shared.organization.id },
      { authorization: `Bearer ${token}` },
    );
    const members = response.body.data!.organization.members;
    const other = members.find((m) => m.user.id === coMember.user.id)!;
    const self = members.find((m) => m.user.id === shared.user.id)!;
    expect(other.user.memberships).toEqual([]);
    expect(self.user.memberships.map((m) => m.organization.id)).toEqual([shared.organization.id]);
  });

  it('when a query names an internal field, then the gateway does not know it', async () => {
    const response = await graphql(
      stack.gateway.graphqlUrl,
      '{ resolveCredential(secretHash: "x") { id } }',
    );
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('subgraphs: only the gateway may call them', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('subgraph-guard');
  });
  afterAll(() => stack.stop());

  it.each(['analytics', 'keys', 'webhooks'] as const)(
    'when %s is called without the gateway signature, then it refuses with 401',
    async (name) => {
      const response = await graphql(stack[name].graphqlUrl, '{ _service { sdl } }');
      expect(response.status).toBe(401);
      expect(response.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED_INTERNAL');
    },
  );

  const gateway = { kind: 'service' as const, name: 'gateway' };
  const sdl = { query: '{ _service { sdl } }', variables: {} };

  it('when the identity is signed with another secret, then the keys subgraph refuses it', async () => {
    const forged = signIdentity('f'.repeat(64), gateway, { audience: 'keys', request: sdl });
    const response = await graphql(stack.keys.graphqlUrl, '{ _service { sdl } }', {}, forged);
    expect(response.status).toBe(401);
  });

  it.each([
    ['another subgraph', { audience: 'analytics' as const, request: sdl }],
    ['another request', { audience: 'keys' as const, request: { query: '{ me { id } }' } }],
  ])(
    'when headers signed for %s are replayed to the keys subgraph with this request, then it refuses them',
    async (_what, signedFor) => {
      const replayed = signIdentity(stack.env.INTERNAL_SECRET!, gateway, signedFor);
      const response = await graphql(stack.keys.graphqlUrl, sdl.query, {}, replayed);
      expect(response.status).toBe(401);
    },
  );

  it('when the identity is signed with the internal secret, then the subgraph answers', async () => {
    const signed = signIdentity(stack.env.INTERNAL_SECRET!, gateway, {
      audience: 'keys',
      request: sdl,
    });
    const response = await graphql<{ _service: { sdl: string } }>(
      stack.keys.graphqlUrl,
      '{ _service { sdl } }',
      {},
      signed,
    );
    expect(response.status).toBe(200);
    expect(response.body.data?._service.sdl).toContain('type ApiKey');
  });

  it('when a signed identity is older than a minute, then it is refused as a replay', async () => {
    const stale = signIdentity(
      stack.env.INTERNAL_SECRET!,
      gateway,
      { audience: 'keys', request: sdl },
      Date.now() - 120_000,
    );
    const response = await graphql(stack.keys.graphqlUrl, '{ _service { sdl } }', {}, stale);
    expect(response.status).toBe(401);
  });
});
