import { readFileSync } from 'node:fs';
import { fromRoot } from '../../common/platform/paths';
import { buildSignedRequest } from '../../subgraphs/webhooks/src/domain/event-payload';

type Verify = (
  rawBody: Buffer,
  headers: Record<string, string>,
  secret: string,
  nowSeconds?: number,
) => { id: string } | null;

/** The receiver guide's verification code, exactly as published in docs/webhooks.md. */
function publishedVerifier(): Verify {
  const markdown = readFileSync(fromRoot('docs', 'webhooks.md'), 'utf8');
  const match =
    /<!-- verification-code:start -->\s*```js\n([\s\S]*?)```\s*<!-- verification-code:end -->/.exec(
      markdown,
    );
  if (!match?.[1]) throw new Error('docs/webhooks.md has no verification-code block');
  return new Function('require', `${match[1]}\nreturn verifyWebhook;`)(require) as Verify;
}

describe('docs/webhooks.md receiver guide', () => {
  const verify = publishedVerifier();
  const event = {
    id: 'evt_1',
    type: 'api_key.created' as const,
    createdAt: '2026-11-21T00:00:00.000Z',
    organizationId: null,
    data: { keyId: 'k' },
  };
  const now = new Date('2026-11-21T00:00:00Z');
  const signed = buildSignedRequest(
    event,
    { id: 'dlv_1', webhookId: 'w1', attempt: 1 },
    'whsec_right',
    now,
  );
  const lowerCased = Object.fromEntries(
    Object.entries(signed.headers).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const nowSeconds = Math.floor(now.getTime() / 1000);

  it('HOOK-7: when a delivery is signed with the secret, then the published code accepts it', () => {
    expect(verify(Buffer.from(signed.body), lowerCased, 'whsec_right', nowSeconds)?.id).toBe(
      'evt_1',
    );
  });

  it('HOOK-4: when the secret is the old one (after rotation), then the published code rejects it', () => {
    expect(verify(Buffer.from(signed.body), lowerCased, 'whsec_old', nowSeconds)).toBeNull();
  });

  it('HOOK-8: when the body was altered or the delivery is older than five minutes, then it is rejected', () => {
    expect(
      verify(
        Buffer.from(signed.body.replace('evt_1', 'evt_2')),
        lowerCased,
        'whsec_right',
        nowSeconds,
      ),
    ).toBeNull();
    expect(
      verify(Buffer.from(signed.body), lowerCased, 'whsec_right', nowSeconds + 301),
    ).toBeNull();
  });
});
