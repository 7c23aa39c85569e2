/**
 * The plans an organization can be on: named the same in the keys subgraph (which owns plans and
 * their limits), in the payment processor's events and in the admin commands.
 */
export const PLANS = ['free', 'pro', 'scale', 'enterprise'] as const;
export type PlanName = (typeof PLANS)[number];
