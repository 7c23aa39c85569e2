import {
  signIdentity,
  type CallerIdentity,
  type Permission,
} from '../../common/contracts/identity';
import { MAX_GOALS_PER_WEBSITE } from '../../common/contracts/goals';
import { readGeneration, siteTag } from '../../common/contracts/read-cache';
import type { RedisClient } from '../../common/platform/redis';
import { buildAccessToken, buildAccount } from '../support/factories';
import { graphql } from '../support/http';
import { openTestRedis } from '../support/redis';
import { startStack, type Stack } from '../support/stack';

const GOAL_FIELDS = 'id name kind pagePath eventName currency createdAt';
const CREATE = `mutation ($input: CreateGoalInput!) { createGoal(input: $input) { ${GOAL_FIELDS} } }`;
const DELETE = `mutation ($websiteId: ID!, $id: ID!) { deleteGoal(websiteId: $websiteId, id: $id) }`;
const LIST = `query ($id: ID!) { website(id: $id) { goals { ${GOAL_FIELDS} } } }`;

interface GoalShape {
  id: string;
  name: string;
  kind: 'PAGE' | 'EVENT';
  pagePath: string | null;
  eventName: string | null;
  currency: string | null;
  createdAt: string;
}

describe('website goals through the dashboard GraphQL', () => {
  let stack: Stack;
  let redis: RedisClient;
  beforeAll(async () => {
    stack = await startStack('goals');
    redis = await openTestRedis(stack.env.REDIS_URL!);
  });
  afterAll(async () => {
    redis.disconnect();
    await stack.stop();
  });

  // Results are read field by field in each test; typing every query's shape adds nothing here.
  const dashboard = (token: string, query: string, variables: Record<string, unknown> = {}) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    graphql<Record<string, any>>(stack.gateway.graphqlUrl, query, variables, {
      authorization: `Bearer ${token}`,
    });

  /** An organization with one website, and its owner's dashboard token. */
  async function ownedWebsite() {
    const account = await buildAccount(stack);
    const { token } = await buildAccessToken(stack, account.user.id);
    return { ...account, website: account.websites[0]!, token };
  }

  /** A dashboard token of a new user with `role` in the organization. */
  async function memberToken(organizationId: string, role: 'admin' | 'member') {
    const { accounts } = stack.keys.services;
    const user = await accounts.createUser(`${role}-${Date.now()}-${Math.random()}@example.test`);
    await accounts.addMember(organizationId, user.id, role);
    return (await buildAccessToken(stack, user.id)).token;
  }

  const goalsOf = async (websiteId: string) =>
    (await stack.keys.services.goals.goalsOfWebsites([websiteId]))[0]!;

  it('DATA-6: when an owner adds a page goal and an event goal with revenue, then the website lists them oldest first, and a deleted one is gone', async () => {
    const { website, token } = await ownedWebsite();
    expect((await dashboard(token, LIST, { id: website.id })).body.data!.website.goals).toEqual([]);

    const page = await dashboard(token, CREATE, {
      input: { websiteId: website.id, kind: 'PAGE', pagePath: '/checkout/*/done' },
    });
    expect(page.status).toBe(200);
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data!.createGoal).toMatchObject({
      name: 'Visit /checkout/*/done',
      kind: 'PAGE',
      pagePath: '/checkout/*/done',
      eventName: null,
      currency: null,
    });
    const event = await dashboard(token, CREATE, {
      input: {
        websiteId: website.id,
        kind: 'EVENT',
        name: 'Purchase made',
        eventName: 'Purchase',
        currency: 'eur',
      },
    });
    expect(event.body.data!.createGoal).toMatchObject({
      name: 'Purchase made',
      kind: 'EVENT',
      pagePath: null,
      eventName: 'Purchase',
      currency: 'EUR',
    });

    const listed = await dashboard(token, LIST, { id: website.id });
    expect(listed.body.data!.website.goals).toEqual([
      page.body.data!.createGoal,
      event.body.data!.createGoal,
    ]);

    const deleted = await dashboard(token, DELETE, {
      websiteId: website.id,
      id: page.body.data!.createGoal.id,
    });
    expect(deleted.body).toEqual({ data: { deleteGoal: true } });
    const after = await dashboard(token, LIST, { id: website.id });
    expect(after.body.data!.website.goals.map((g: GoalShape) => g.eventName)).toEqual(['Purchase']);

    const again = await dashboard(token, DELETE, {
      websiteId: website.id,
      id: page.body.data!.createGoal.id,
    });
    expect(again.body.errors?.[0]?.extensions).toMatchObject({ code: 'not_found' });
  });

  it.each([
    ['a path without its leading slash', { kind: 'PAGE', pagePath: 'pricing' }, 'start with /'],
    ['a path with a query string', { kind: 'PAGE', pagePath: '/a?ref=x' }, 'query string'],
    ['an unknown currency', { kind: 'EVENT', eventName: 'Buy', currency: 'ABC' }, 'ISO 4217'],
    [
      'a currency on a page goal',
      { kind: 'PAGE', pagePath: '/thanks', currency: 'USD' },
      'EVENT goals only',
    ],
    ['an event goal without its name', { kind: 'EVENT' }, 'needs eventName'],
  ])(
    'DATA-6: when a goal is created with %s, then 400 invalid_parameters and nothing is stored',
    async (_case, input, mentions) => {
      const { website, token } = await ownedWebsite();
      const response = await dashboard(token, CREATE, {
        input: { websiteId: website.id, ...input },
      });
      expect(response.body.data).toBeNull();
      expect(response.body.errors?.[0]?.extensions).toMatchObject({
        code: 'invalid_parameters',
        httpStatus: 400,
      });
      expect(response.body.errors?.[0]?.message).toContain(mentions);
      expect(await goalsOf(website.id)).toEqual([]);
    },
  );

  it('DATA-6: when a goal repeats one the website has (the same path once encoded, or the same event), then it is refused naming the existing goal', async () => {
    const { website, token } = await ownedWebsite();
    const first = await dashboard(token, CREATE, {
      input: { websiteId: website.id, kind: 'PAGE', pagePath: '/café' },
    });
    expect(first.body.data!.createGoal.pagePath).toBe('/caf%C3%A9');
    const event = await dashboard(token, CREATE, {
      input: { websiteId: website.id, kind: 'EVENT', eventName: 'Signup' },
    });

    const samePath = await dashboard(token, CREATE, {
      input: { websiteId: website.id, kind: 'PAGE', pagePath: '/caf%C3%A9', name: 'Other name' },
    });
    expect(samePath.body.errors?.[0]?.extensions).toMatchObject({
      code: 'invalid_parameters',
      details: { goalId: first.body.data!.createGoal.id },
    });
    const sameEvent = await dashboard(token, CREATE, {
      input: { websiteId: website.id, kind: 'EVENT', eventName: 'Signup', currency: 'USD' },
    });
    expect(sameEvent.body.errors?.[0]?.extensions).toMatchObject({
      code: 'invalid_parameters',
      details: { goalId: event.body.data!.createGoal.id },
    });
    // A page and an event may share a name: they are different goals.
    const pageNamedLikeEvent = await dashboard(token, CREATE, {
      input: { websiteId: website.id, kind: 'PAGE', pagePath: '/Signup' },
    });
    expect(pageNamedLikeEvent.body.errors).toBeUndefined();
    expect(await goalsOf(website.id)).toHaveLength(3);
  });

  it(`DATA-6: when a website has ${MAX_GOALS_PER_WEBSITE} goals, then another is refused with 409 goal_limit_reached, and deleting one makes room`, async () => {
    const { website, token } = await ownedWebsite();
    const { goals } = stack.keys.services;
    for (let i = 0; i < MAX_GOALS_PER_WEBSITE; i += 1)
      await goals.create(website.id, { kind: 'page', pagePath: `/step-${i}` });

    const refused = await dashboard(token, CREATE, {
      input: { websiteId: website.id, kind: 'EVENT', eventName: 'One too many' },
    });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      code: 'goal_limit_reached',
      httpStatus: 409,
    });
    expect(refused.body.errors?.[0]?.message).toContain(String(MAX_GOALS_PER_WEBSITE));

    const [oldest] = await goalsOf(website.id);
    await dashboard(token, DELETE, { websiteId: website.id, id: oldest!.id });
    const allowed = await dashboard(token, CREATE, {
      input: { websiteId: website.id, kind: 'EVENT', eventName: 'One too many' },
    });
    expect(allowed.body.errors).toBeUndefined();
    expect(await goalsOf(website.id)).toHaveLength(MAX_GOALS_PER_WEBSITE);
  });

  it('DATA-6: when creations race for the last places, then exactly the room left is filled', async () => {
    const { website, token } = await ownedWebsite();
    const { goals } = stack.keys.services;
    for (let i = 0; i < MAX_GOALS_PER_WEBSITE - 2; i += 1)
      await goals.create(website.id, { kind: 'event', eventName: `event-${i}` });

    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        dashboard(token, CREATE, {
          input: { websiteId: website.id, kind: 'PAGE', pagePath: `/race-${i}` },
        }),
      ),
    );
    const codes = answers.map((a) => a.body.errors?.[0]?.extensions?.code ?? 'created').sort();
    expect(codes).toEqual([
      'created',
      'created',
      'goal_limit_reached',
      'goal_limit_reached',
      'goal_limit_reached',
    ]);
    expect(await goalsOf(website.id)).toHaveLength(MAX_GOALS_PER_WEBSITE);
  });

  it("DATA-6: when a goal changes, then the facade's cached answers about the website are out of date", async () => {
    const { website, token } = await ownedWebsite();
    const generation = () =>
      readGeneration(redis, stack.env.REDIS_KEY_PREFIX!, siteTag(website.id));
    const before = await generation();
    const created = await dashboard(token, CREATE, {
      input: { websiteId: website.id, kind: 'EVENT', eventName: 'Download' },
    });
    const afterCreate = await generation();
    expect(afterCreate).not.toBeNull();
    expect(afterCreate).not.toBe(before);
    await dashboard(token, DELETE, { websiteId: website.id, id: created.body.data!.createGoal.id });
    expect(await generation()).not.toBe(afterCreate);
  });

  describe('who may', () => {
    it("DATA-6: when an owner of another organization reads, adds or deletes a website's goals, then each is refused with forbidden and nothing changes", async () => {
      const { website, token: ownerToken } = await ownedWebsite();
      const created = await dashboard(ownerToken, CREATE, {
        input: { websiteId: website.id, kind: 'PAGE', pagePath: '/kept' },
      });
      const stranger = (await ownedWebsite()).token;

      const read = await dashboard(stranger, LIST, { id: website.id });
      const create = await dashboard(stranger, CREATE, {
        input: { websiteId: website.id, kind: 'PAGE', pagePath: '/intruder' },
      });
      const remove = await dashboard(stranger, DELETE, {
        websiteId: website.id,
        id: created.body.data!.createGoal.id,
      });
      for (const refused of [read, create, remove])
        expect(refused.body.errors?.[0]?.extensions).toMatchObject({
          code: 'forbidden',
          httpStatus: 403,
        });
      expect((await goalsOf(website.id)).map((g) => g.pagePath)).toEqual(['/kept']);
    });

    it('DATA-6: when a plain member reads the goals, then they are listed; when the member adds or deletes one, then forbidden; an admin may', async () => {
      const { organization, website, token: ownerToken } = await ownedWebsite();
      const created = await dashboard(ownerToken, CREATE, {
        input: { websiteId: website.id, kind: 'EVENT', eventName: 'Signup' },
      });
      const member = await memberToken(organization.id, 'member');
      const admin = await memberToken(organization.id, 'admin');

      const read = await dashboard(member, LIST, { id: website.id });
      expect(read.body.data!.website.goals.map((g: GoalShape) => g.eventName)).toEqual(['Signup']);
      const create = await dashboard(member, CREATE, {
        input: { websiteId: website.id, kind: 'PAGE', pagePath: '/member' },
      });
      const remove = await dashboard(member, DELETE, {
        websiteId: website.id,
        id: created.body.data!.createGoal.id,
      });
      for (const refused of [create, remove]) {
        expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden' });
        expect(refused.body.errors?.[0]?.message).toContain('owner or admin');
      }
      expect(await goalsOf(website.id)).toHaveLength(1);

      const byAdmin = await dashboard(admin, CREATE, {
        input: { websiteId: website.id, kind: 'PAGE', pagePath: '/admin' },
      });
      expect(byAdmin.body.errors).toBeUndefined();
      const removedByAdmin = await dashboard(admin, DELETE, {
        websiteId: website.id,
        id: created.body.data!.createGoal.id,
      });
      expect(removedByAdmin.body.data).toEqual({ deleteGoal: true });
    });

    it("DATA-6: when a goal is deleted through another of the caller's websites, or on an unknown website, then not_found", async () => {
      const account = await buildAccount(stack, { websites: 2 });
      const { token } = await buildAccessToken(stack, account.user.id);
      const [first, second] = account.websites;
      const created = await dashboard(token, CREATE, {
        input: { websiteId: first!.id, kind: 'PAGE', pagePath: '/one' },
      });
      const id = created.body.data!.createGoal.id;

      const elsewhere = await dashboard(token, DELETE, { websiteId: second!.id, id });
      const unknownWebsite = await dashboard(token, CREATE, {
        input: { websiteId: '0123456789abcdef01234567', kind: 'PAGE', pagePath: '/x' },
      });
      const malformedGoal = await dashboard(token, DELETE, { websiteId: first!.id, id: 'nope' });
      for (const missing of [elsewhere, unknownWebsite, malformedGoal])
        expect(missing.body.errors?.[0]?.extensions).toMatchObject({
          code: 'not_found',
          httpStatus: 404,
        });
      expect(await goalsOf(first!.id)).toHaveLength(1);
    });

    it('DATA-6: when a request without a credential asks to add a goal, then it is refused as unauthenticated', async () => {
      const { website } = await ownedWebsite();
      const response = await graphql<Record<string, unknown>>(stack.gateway.graphqlUrl, CREATE, {
        input: { websiteId: website.id, kind: 'PAGE', pagePath: '/anon' },
      });
      expect(response.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(await goalsOf(website.id)).toEqual([]);
    });
  });

  describe('in the keys subgraph, as the gateway calls it', () => {
    /** `query` sent straight to the keys subgraph as `identity`, signed as the gateway signs. */
    const asSigned = (
      identity: CallerIdentity,
      query: string,
      variables: Record<string, unknown>,
    ) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      graphql<Record<string, any>>(
        stack.keys.graphqlUrl,
        query,
        variables,
        signIdentity(stack.env.INTERNAL_SECRET!, identity, {
          audience: 'keys',
          request: { query, variables },
        }),
      );

    const ENTITIES = `query ($representations: [_Any!]!) {
      _entities(representations: $representations) {
        ... on Website { id readableByCaller goals { kind pagePath eventName currency } }
      }
    }`;

    it('DATA-6: when another subgraph requires the goals of a website reference, then the keys subgraph resolves them for a caller who may read it, and refuses the others', async () => {
      const { user, website } = await ownedWebsite();
      await stack.keys.services.goals.create(website.id, {
        kind: 'event',
        eventName: 'Purchase',
        currency: 'USD',
      });
      const representations = [{ __typename: 'Website', id: website.id }];
      const member = await asSigned(
        { kind: 'accessToken', tokenId: 't', userId: user.id },
        ENTITIES,
        { representations },
      );
      expect(member.body).toEqual({
        data: {
          _entities: [
            {
              id: website.id,
              readableByCaller: true,
              goals: [{ kind: 'EVENT', pagePath: null, eventName: 'Purchase', currency: 'USD' }],
            },
          ],
        },
      });

      const stranger = (await ownedWebsite()).user;
      const refused = await asSigned(
        { kind: 'accessToken', tokenId: 't', userId: stranger.id },
        ENTITIES,
        { representations },
      );
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('forbidden');
    });

    it('DATA-6: when an API key manages goals, then it needs the manage websites permission and access to the website (the gateway runs only persisted operations for keys, none of which manage goals)', async () => {
      const { organization, user, website } = await ownedWebsite();
      const key = (
        permissions: Permission[],
        websiteIds: string[] | null = null,
      ): CallerIdentity => ({
        kind: 'apiKey',
        keyId: 'k',
        userId: user.id,
        organizationId: organization.id,
        permissions,
        websiteIds,
      });
      const input = { websiteId: website.id, kind: 'PAGE', pagePath: '/by-key' };

      const readOnly = await asSigned(key(['read_analytics']), CREATE, { input });
      expect(readOnly.body.errors?.[0]?.extensions?.code).toBe('forbidden');
      expect(readOnly.body.errors?.[0]?.message).toContain('manage websites');
      const managing = await asSigned(key(['manage_websites']), CREATE, { input });
      expect(managing.body.errors).toBeUndefined();
      const otherSite = await asSigned(
        key(['manage_websites'], ['0123456789abcdef01234567']),
        CREATE,
        { input: { ...input, pagePath: '/not-selected' } },
      );
      expect(otherSite.body.errors?.[0]?.extensions?.code).toBe('forbidden');
      expect((await goalsOf(website.id)).map((g) => g.pagePath)).toEqual(['/by-key']);
    });
  });
});
