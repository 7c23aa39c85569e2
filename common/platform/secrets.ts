import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'svc_';
export const ACCESS_TOKEN_PREFIX = 'wat_';

/** A new credential: prefix plus 32 random bytes, base64url (43 characters). */
export function generateSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** One-shot (`crypto.hash`): no Hash object per call; every API call hashes its key. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** What the dashboard may show of a credential: its prefix and first characters. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, 12);
}

const CREDENTIAL_SHAPE = /^(svc|wat)_[A-Za-z0-9_-]{43,}$/;

export function looksLikeCredential(value: string): boolean {
  return CREDENTIAL_SHAPE.test(value);
}

/** The credential a request presents: `X-API-Key`, else `Authorization: Bearer`; null if neither. */
export function presentedCredential(
  headers: Record<string, string | string[] | undefined>,
): string | null {
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string') return apiKey.trim();
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    return match?.[1] ? match[1].trim() : '';
  }
  return null;
}
