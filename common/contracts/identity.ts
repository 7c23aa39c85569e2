import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { PlanName } from './plans';

export const PERMISSIONS = [
  'read_analytics',
  'track_events',
  'manage_websites',
  'manage_team',
  'admin',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Who is calling, as established by the gateway's engine and handed to the subgraphs. */
export type CallerIdentity =
  | {
      kind: 'apiKey';
      keyId: string;
      userId: string;
      organizationId: string;
      permissions: Permission[];
      /** null means every website of the organization. */
      websiteIds: string[] | null;
    }
  | { kind: 'accessToken'; tokenId: string; userId: string }
  | { kind: 'service'; name: string }
  | { kind: 'anonymous' };

/** The REST facade on its own behalf (the collector resolving tracking codes). */
export const FACADE_SERVICE_IDENTITY = { kind: 'service', name: 'rest-facade' } as const;

export const IDENTITY_HEADER = 'x-internal-identity';
export const TIMESTAMP_HEADER = 'x-internal-timestamp';
export const SIGNATURE_HEADER = 'x-internal-signature';

/** How long a signed identity stays acceptable; covers clock skew between hosts. */
const MAX_AGE_MS = 60_000;

/** The services that receive signed identities: the subgraphs. */
export type Audience = 'analytics' | 'keys' | 'webhooks';

/** The fields of a GraphQL request body; a signature covers them (not their serialization). */
export interface GraphQLBody {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

/**
 * What a signed identity is bound to: the one service it is meant for and the one GraphQL request
 * it travels with. Headers seen on the internal network can then neither be replayed to another
 * service nor carry another operation or other variables, even within the minute they are valid.
 */
export interface SignedFor {
  audience: Audience;
  request: GraphQLBody | undefined;
}

/** A digest of the request's GraphQL fields, the same on both sides of a JSON round trip. */
function requestDigest(body: GraphQLBody | undefined): string {
  const { query, operationName, variables, extensions } = body ?? {};
  return createHash('sha256')
    .update(
      JSON.stringify([query ?? null, operationName ?? null, variables ?? null, extensions ?? null]),
    )
    .digest('hex');
}

function sign(secret: string, timestamp: string, payload: string, target: SignedFor): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.${target.audience}.${requestDigest(target.request)}.${payload}`)
    .digest('hex');
}

/**
 * Headers that let `target.audience` trust `identity` for `target.request`: only holders of the
 * internal secret can make them.
 */
export function signIdentity(
  secret: string,
  identity: CallerIdentity,
  target: SignedFor,
  now = Date.now(),
): Record<string, string> {
  const payload = Buffer.from(JSON.stringify(identity)).toString('base64url');
  const timestamp = String(now);
  return {
    [IDENTITY_HEADER]: payload,
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: sign(secret, timestamp, payload, target),
  };
}

type HeaderValue = string | string[] | undefined;

/**
 * Returns the identity when the headers were signed with `secret` recently, for this service and
 * this very request; else null.
 */
export function verifyIdentity(
  secret: string,
  headers: Record<string, HeaderValue>,
  target: SignedFor,
  now = Date.now(),
): CallerIdentity | null {
  const payload = single(headers[IDENTITY_HEADER]);
  const timestamp = single(headers[TIMESTAMP_HEADER]);
  const signature = single(headers[SIGNATURE_HEADER]);
  if (!payload || !timestamp || !signature) return null;
  const age = now - Number(timestamp);
  if (!Number.isFinite(age) || Math.abs(age) > MAX_AGE_MS) return null;
  const expected = Buffer.from(sign(secret, timestamp, payload, target), 'hex');
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CallerIdentity;
  } catch {
    return null;
  }
}

function single(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** What the keys subgraph tells the gateway about a presented credential (by its hash). */
export interface ResolvedCredential {
  kind: 'apiKey' | 'accessToken';
  id: string;
  userId: string;
  organizationId: string | null;
  /** The keys subgraph's `Plan` enum value: `FREE`, `PRO`, `SCALE` or `ENTERPRISE`. */
  organizationPlan: Uppercase<PlanName> | null;
  permissions: string[];
  /** null: every website of the organization. */
  websiteIds: string[] | null;
  expiresAt: string | null;
}
