import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface DestinationPolicy {
  /** Production refuses plain http. */
  requireHttps: boolean;
  /** Development setting: loopback receivers (and http to them) are accepted. */
  allowLoopback: boolean;
}

export type RefusalReason =
  | 'not_absolute_http_url'
  | 'https_required'
  | 'credentials_in_url'
  | 'invalid_port'
  | 'url_too_long'
  | 'forbidden_address'
  | 'unresolvable_host';

/** The longest webhook URL, as stored and sent (percent-encoded). */
export const MAX_URL_LENGTH = 2048;

/** Why a webhook URL or the address it resolves to is refused. */
export class DestinationRefusedError extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'DestinationRefusedError';
  }
}

/**
 * IPv4-compatible IPv6 (`::a.b.c.d`, ::/96, deprecated by RFC 4291) is not routable, and some
 * stacks hand it to the IPv4 it carries. ipaddr.js calls `::7f00:1` unicast and reads the dotted
 * `::127.0.0.1` as IPv4-mapped, so Node's own parser judges membership.
 */
const IPV4_COMPATIBLE = new BlockList();
IPV4_COMPATIBLE.addSubnet('::', 96, 'ipv6');

/**
 * Only globally routable unicast addresses pass: loopback, private, link-local (cloud metadata
 * at 169.254.169.254 included), CGNAT, multicast, unique-local, documentation, 6to4/Teredo,
 * IPv4-compatible (`::/96`) and every other special range are refused. IPv4-mapped IPv6 is judged
 * as the IPv4 it carries.
 */
export function isAllowedAddress(
  address: string,
  policy: Pick<DestinationPolicy, 'allowLoopback'>,
): boolean {
  if (!ipaddr.isValid(address)) return false;
  // `::1` lies in ::/96 too; it is judged as loopback below.
  if (
    isIP(address) === 6 &&
    IPV4_COMPATIBLE.check(address, 'ipv6') &&
    ipaddr.parse(address).range() !== 'loopback'
  )
    return false;
  const range = ipaddr.process(address).range();
  if (range === 'unicast') return true;
  return policy.allowLoopback && range === 'loopback';
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** What can be judged without the network: scheme, credentials, literal addresses. */
export function checkUrlShape(raw: string, policy: DestinationPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationRefusedError(
      'not_absolute_http_url',
      'The URL must be an absolute http(s) URL',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DestinationRefusedError(
      'not_absolute_http_url',
      'The URL must be an absolute http(s) URL',
    );
  }
  if (url.username || url.password)
    throw new DestinationRefusedError(
      'credentials_in_url',
      'The URL must not carry a user name or password',
    );
  // The stored and sent form is the encoded one: 2048 typed characters can encode to 6 times that.
  if (url.href.length > MAX_URL_LENGTH)
    throw new DestinationRefusedError(
      'url_too_long',
      `The URL must be at most ${MAX_URL_LENGTH} characters once encoded (it is ${url.href.length})`,
    );
  // URL accepts port 0, where nothing can listen: every delivery would fail.
  if (url.port === '0')
    throw new DestinationRefusedError('invalid_port', 'The URL must not use port 0');
  const host = hostOf(url);
  const literal = isIP(host) !== 0;
  if (literal && !isAllowedAddress(host, policy)) {
    throw new DestinationRefusedError(
      'forbidden_address',
      'The URL points at a loopback, private, link-local or reserved address',
    );
  }
  const loopbackException =
    policy.allowLoopback && literal && ipaddr.process(host).range() === 'loopback';
  if (url.protocol === 'http:' && policy.requireHttps && !loopbackException) {
    throw new DestinationRefusedError('https_required', 'The URL must use https');
  }
  return url;
}

export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    );
  });

/** The shape check plus DNS: every address the host resolves to must be allowed. */
export async function checkDestination(
  raw: string,
  policy: DestinationPolicy,
  resolver: Resolver = systemResolver,
): Promise<URL> {
  const url = checkUrlShape(raw, policy);
  const host = hostOf(url);
  if (isIP(host) !== 0) return url;
  let addresses: string[];
  try {
    addresses = await resolver(host);
  } catch {
    throw new DestinationRefusedError('unresolvable_host', `The host ${host} does not resolve`);
  }
  if (addresses.length === 0)
    throw new DestinationRefusedError('unresolvable_host', `The host ${host} does not resolve`);
  if (!addresses.every((a) => isAllowedAddress(a, policy))) {
    throw new DestinationRefusedError(
      'forbidden_address',
      `The host ${host} resolves to a loopback, private, link-local or reserved address`,
    );
  }
  return url;
}

/**
 * A `lookup` for sockets that refuses forbidden addresses after resolution, so the address
 * checked is the address connected to (no DNS-rebinding window between check and connect).
 */
export function guardedLookup(policy: Pick<DestinationPolicy, 'allowLoopback'>): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter((a) => isAllowedAddress(a.address, policy));
      if (allowed.length !== addresses.length || allowed.length === 0) {
        const refusal = Object.assign(
          new DestinationRefusedError(
            'forbidden_address',
            `${hostname} resolves to a forbidden address`,
          ),
          { code: 'EWEBHOOKFORBIDDEN' },
        );
        return callback(refusal, []);
      }
      if (options.all) return callback(null, allowed);
      const [first] = allowed as [LookupAddress];
      return callback(null, first.address, first.family);
    });
  };
}
