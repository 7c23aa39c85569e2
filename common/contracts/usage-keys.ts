/**
 * Redis keys of the usage counters; written by the facade, read by the keys subgraph. The hash
 * tags keep what one script touches in one Redis Cluster slot: an organization's per-minute
 * window and monthly counter (`{org id}`), a key's total and daily hash (`{key id}`).
 */
export const usageKeys = (prefix: string) => ({
  /** rate-limiter-flexible's key for `minuteWindowId(org id)` under the prefix `<p>rl:minute`. */
  minuteWindow: (organizationId: string) => `${prefix}rl:minute:${minuteWindowId(organizationId)}`,
  monthly: (organizationId: string, now: Date) =>
    `${prefix}usage:org:{${organizationId}}:${now.toISOString().slice(0, 7)}`,
  keyTotal: (keyId: string) => `${prefix}usage:key:{${keyId}}:total`,
  /** Hash of YYYY-MM-DD → requests that day. */
  keyDaily: (keyId: string) => `${prefix}usage:key:{${keyId}}:daily`,
});

/** The organization's per-minute window as rate-limiter-flexible names it (after its prefix). */
export const minuteWindowId = (organizationId: string) => `{${organizationId}}`;
