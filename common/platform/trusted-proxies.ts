import express from 'express';
import { z } from 'zod';

/** Express's `trust proxy` value: none, a number of hops, or addresses, ranges and names. */
export type TrustProxy = false | number | string;

/** TRUSTED_PROXIES as Express's `trust proxy` value: unset trusts none; digits count hops. */
export function trustProxySetting(trustedProxies: string): TrustProxy {
  if (trustedProxies === '') return false;
  // Passed as a string, `1` would be read as the IPv4 address 0.0.0.1, not as one hop.
  return /^\d+$/.test(trustedProxies) ? Number(trustedProxies) : trustedProxies;
}

/** Express parses the setting only when it is set: a typo would otherwise stop the service late. */
const acceptedByExpress = (trustedProxies: string) => {
  try {
    express().set('trust proxy', trustProxySetting(trustedProxies));
    return true;
  } catch {
    return false;
  }
};

/**
 * TRUSTED_PROXIES: the proxies in front whose X-Forwarded-For names the client. None by default,
 * so a caller cannot choose the address that is logged and limited. A number of hops (`1`), or
 * comma-separated addresses, ranges and Express's names (`loopback`, `10.0.0.0/8`, `uniquelocal`).
 */
export const trustedProxies = z.string().default('').refine(acceptedByExpress, {
  error:
    'must be a number of hops, or comma-separated addresses, CIDR ranges and loopback, linklocal or uniquelocal',
});
