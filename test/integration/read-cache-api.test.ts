import { callApi } from '../support/api-client';
import { buildAccount, buildApiKey } from '../support/factories';
import { buildPageview, ingestEvents } from '../support/ingest';
import { startStack, type Stack } from '../support/stack';

/**
 * The read cache seen from the API (docs/scaling.md, "Cached reads"): every call is still
 * authenticated, limited and checked for access; a cached answer is only ever served for the same
 * request in the same access scope, and never after the data behind it changed.
 */
describe('External API reads through the read cache', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('read-cache-api');
  });
  afterAll(() => stack.stop());

  /** Reads until the answer comes from the cache, and returns it. */
  async function cached(key: string, path: string) {
    await callApi(stack, 'GET', path, { key });
    const again = await callApi(stack, 'GET', path, { key });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-cache')).toBe('HIT');
    return again;
  }

  it('when a read is repeated, then the second answer comes from the cache and equals the first, with every usage header', async () => {
    const account = await buildAccount(stack);
    const { key } = await buildApiKey(stack, account);
    const path = `/websites/${account.websites[0]!.id}`;
    const first = await callApi(stack, 'GET', path, { key });
    expect(first.headers.get('x-cache')).toBe('MISS');
    const second = await callApi(stack, 'GET', path, { key });
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect((second.body as { data: unknown }).data).toEqual((first.body as { data: unknown }).data);
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-usage-monthly'])
      expect(second.headers.get(header)).not.toBeNull();
    // Counted like any call: the monthly count moved on.
    expect(Number(second.headers.get('x-usage-monthly'))).toBe(
      Number(first.headers.get('x-usage-monthly')) + 1,
    );
  });

  it('when an answer comes from the cache, then it carries the JSON content type and its exact length, and a HEAD gets the same headers without a body', async () => {
    const account = await buildAccount(stack);
    const { key } = await buildApiKey(stack, account);
    const url = `${stack.facade.url}/api/external/v1/websites/${account.websites[0]!.id}`;
    await cached(key, `/websites/${account.websites[0]!.id}`);
    const hit = await fetch(url, { headers: { 'x-api-key': key } });
    const text = await hit.text();
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(hit.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const head = await fetch(url, { method: 'HEAD', headers: { 'x-api-key': key } });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-cache')).toBe('HIT');
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(await head.text()).toBe('');
  });

  it('when keys of different scopes read the same path, then none is answered from another scope’s cached answer', async () => {
    const owner = await buildAccount(stack, { websites: 2 });
    const [w1, w2] = owner.websites;
    const everything = (await buildApiKey(stack, owner)).key;
    const onlyW1 = (await buildApiKey(stack, owner, { websiteIds: [w1!.id] })).key;
    const stranger = (await buildApiKey(stack, await buildAccount(stack))).key;

    const all = await cached(everything, '/websites');
    expect((all.body as { data: { websites: unknown[] } }).data.websites).toHaveLength(2);
    const narrow = await callApi(stack, 'GET', '/websites', { key: onlyW1 });
    expect(narrow.headers.get('x-cache')).toBe('MISS');
    expect(
      (narrow.body as { data: { websites: Array<{ id: string }> } }).data.websites.map((w) => w.id),
    ).toEqual([w1!.id]);

    await cached(everything, `/analytics/${w2!.id}?range=30d`);
    const refused = await callApi(stack, 'GET', `/analytics/${w2!.id}?range=30d`, { key: onlyW1 });
    expect(refused.status).toBe(403);
    const otherOrg = await callApi(stack, 'GET', `/analytics/${w2!.id}?range=30d`, {
      key: stranger,
    });
    expect([403, 404]).toContain(otherOrg.status);
    expect(otherOrg.headers.get('x-cache')).not.toBe('HIT');
  });

  it('when a key is deleted after its reads were cached, then its next call is refused', async () => {
    const account = await buildAccount(stack);
    const { key, apiKey } = await buildApiKey(stack, account);
    const path = `/analytics/${account.websites[0]!.id}`;
    await cached(key, path);
    await stack.keys.services.credentials.deleteApiKey(apiKey.id);
    expect((await callApi(stack, 'GET', path, { key })).status).toBe(401);
  });

  it('when the organization’s plan changes after a read was cached, then the very next call is held to the new plan', async () => {
    const account = await buildAccount(stack, { plan: 'pro' });
    const { key } = await buildApiKey(stack, account);
    const path = `/websites/${account.websites[0]!.id}`;
    const before = await cached(key, path);
    await stack.keys.services.accounts.setPlan(account.organization.id, 'scale');
    const after = await callApi(stack, 'GET', path, { key });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-ratelimit-limit')).not.toBe(
      before.headers.get('x-ratelimit-limit'),
    );
    await stack.keys.services.accounts.setPlan(account.organization.id, 'free');
    expect((await callApi(stack, 'GET', path, { key })).status).toBe(403);
  });

  it('when a new event’s batch has been applied, then the next read of the website shows it, whatever the case of the id it names', async () => {
    const account = await buildAccount(stack);
    const { key } = await buildApiKey(stack, account);
    const websiteId = account.websites[0]!.id;
    const paths = [websiteId, websiteId.toUpperCase()].map((id) => `/analytics/${id}?range=24h`);
    const pageviews = (response: { body: unknown }) =>
      (response.body as { data: { summary: { pageviews: number } } }).data.summary.pageviews;
    const before = [];
    for (const path of paths) before.push(pageviews(await cached(key, path)));
    await ingestEvents(stack, [buildPageview(websiteId, { ts: Date.now() - 1_000 })]);
    for (const [i, path] of paths.entries()) {
      const after = await callApi(stack, 'GET', path, { key });
      expect(after.headers.get('x-cache')).toBe('MISS');
      expect(pageviews(after)).toBe(before[i]! + 1);
    }
  });

  it('when a website is added to the organization, then the next list of websites shows it', async () => {
    const account = await buildAccount(stack);
    const { key } = await buildApiKey(stack, account);
    await cached(key, '/websites');
    await stack.keys.services.accounts.createWebsite({
      organizationId: account.organization.id,
      name: 'Added',
      domain: `added-${Date.now()}.example`,
    });
    const after = await callApi(stack, 'GET', '/websites', { key });
    expect((after.body as { data: { websites: unknown[] } }).data.websites).toHaveLength(2);
  });
});
