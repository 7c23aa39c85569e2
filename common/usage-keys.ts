/** Redis keys of the usage counters; written by the facade, read by the keys subgraph. */
export const usageKeys = (prefix: string) => ({
  monthly: (organizationId: string, now: Date) =>
    `${prefix}usage:org:${organizationId}:${now.toISOString().slice(0, 7)}`,
  keyTotal: (keyId: string) => `${prefix}usage:key:${keyId}:total`,
  /** Hash of YYYY-MM-DD → requests that day. */
  keyDaily: (keyId: string) => `${prefix}usage:key:${keyId}:daily`,
});
