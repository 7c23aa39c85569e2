import { callApi } from '../support/api-client';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { graphql } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';

const USAGE = `query ($id: ID!) {
  organization(id: $id) { plan limits { requestsPerMonth } usage { month requests resetsAt daily { date requests } } }
}`;

interface UsageAnswer {
  organization: {
    plan: string;
    limits: { requestsPerMonth: number };
    usage: {
      month: string;
      requests: number;
      resetsAt: string;
      daily: Array<{ date: string; requests: number }>;
    };
  } | null;
}

describe("the dashboard's Usage page data (Organization.usage)", () => {
  jest.setTimeout(60_000);
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('dashboard-usage', { WEBHOOK_WORKERS_ENABLED: 'false' });
  });
  afterAll(() => stack.stop());

  it("when an organization's keys make calls, then this month's usage counts them, today's bar included, for members only", async () => {
    const account = await buildAccount(stack);
    const first = await buildApiKey(stack, account);
    const second = await buildApiKey(stack, account);
    for (const key of [first.key, first.key, second.key])
      expect((await callApi(stack, 'GET', '/websites', { key })).status).toBe(200);
    // A deleted key's calls still count this month.
    await stack.keys.services.credentials.deleteApiKey(second.apiKey.id);

    const token = await buildAccessToken(stack, account.user.id);
    const ask = (bearer: string) =>
      graphql<UsageAnswer>(
        stack.gateway.graphqlUrl,
        USAGE,
        { id: account.organization.id },
        { authorization: `Bearer ${bearer}` },
      );
    const now = new Date();
    const usage = await waitFor(async () => {
      const answer = await ask(token.token);
      const found = answer.body.data?.organization?.usage;
      return found && found.requests === 3 ? found : null;
    });
    expect(usage.month).toBe(now.toISOString().slice(0, 7));
    expect(usage.resetsAt).toBe(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    );
    expect(usage.daily).toHaveLength(now.getUTCDate());
    expect(usage.daily.at(-1)).toEqual({ date: now.toISOString().slice(0, 10), requests: 3 });
    expect(usage.daily.slice(0, -1).every((day) => day.requests === 0)).toBe(true);

    const outsider = await buildAccount(stack);
    const outsiderToken = await buildAccessToken(stack, outsider.user.id);
    const refused = await ask(outsiderToken.token);
    expect(refused.body.data?.organization ?? null).toBeNull();
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('not_found');
  });
});
