import { createHmac, randomBytes } from 'node:crypto';
import { buildSignedRequest } from '../../subgraphs/webhooks/src/domain/event-payload';
import {
  generateSigningSecret,
  SecretBox,
  signBody,
  verifyBodySignature,
} from '../../subgraphs/webhooks/src/domain/signing-secret';

describe('signing secrets at rest (AES-256-GCM)', () => {
  it('when a secret is sealed, then only the same key opens it and the ciphertext does not contain it', () => {
    const box = new SecretBox(randomBytes(32));
    const secret = generateSigningSecret();

    const sealed = box.seal(secret);

    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed)).toBe(secret);
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  it('when the ciphertext is altered, then opening fails', () => {
    const box = new SecretBox(randomBytes(32));
    const [version, iv, tag, ciphertext] = box.seal('whsec_x').split('.');
    const flipped = Buffer.from(ciphertext!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => box.open([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });
});

describe('HOOK-7: delivery signature', () => {
  it('when a body is signed, then the signature is the lowercase hex HMAC-SHA256 of its exact bytes', () => {
    const body = '{"id":"evt_1","type":"webhook.test"}';
    expect(signBody('whsec_k', body)).toBe(
      createHmac('sha256', 'whsec_k').update(body).digest('hex'),
    );
    expect(signBody('whsec_k', body)).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyBodySignature('whsec_k', body, signBody('whsec_k', body))).toBe(true);
    expect(verifyBodySignature('whsec_other', body, signBody('whsec_k', body))).toBe(false);
    expect(verifyBodySignature('whsec_k', `${body} `, signBody('whsec_k', body))).toBe(false);
  });

  it('HOOK-8: when a delivery is built, then the signed body carries the timestamp and snake_case data, and the headers the event id, type and timestamp', () => {
    const event = {
      id: 'evt_1',
      type: 'api_key.created' as const,
      createdAt: '2026-11-21T00:00:00.000Z',
      organizationId: 'o1',
      data: { keyId: 'k', expiresAt: null },
    };
    const signed = buildSignedRequest(
      event,
      { id: 'dlv_1', webhookId: 'w1', attempt: 2 },
      'whsec_k',
      new Date(1_800_000_000_000),
    );

    expect(JSON.parse(signed.body)).toEqual({
      id: 'evt_1',
      type: 'api_key.created',
      created_at: event.createdAt,
      timestamp: 1_800_000_000,
      webhook_id: 'w1',
      organization_id: 'o1',
      data: { key_id: 'k', expires_at: null },
    });
    expect(signed.headers).toMatchObject({
      'X-Webhook-Signature': signBody('whsec_k', signed.body),
      'X-Webhook-Event-Id': 'evt_1',
      'X-Webhook-Event-Type': 'api_key.created',
      'X-Webhook-Timestamp': '1800000000',
      'X-Webhook-Delivery-Id': 'dlv_1',
      'X-Webhook-Attempt': '2',
    });
  });
});
