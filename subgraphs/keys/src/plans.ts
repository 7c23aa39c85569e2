import { PLANS, type PlanName } from '../../../common/contracts/plans';

export { PLANS, type PlanName };

export interface Limits {
  requestsPerMinute: number;
  requestsPerMonth: number;
}

/** The spec's limits table. Free has no External API access, hence zero. */
export const PLAN_LIMITS: Record<PlanName, Limits> = {
  free: { requestsPerMinute: 0, requestsPerMonth: 0 },
  pro: { requestsPerMinute: 30, requestsPerMonth: 10_000 },
  scale: { requestsPerMinute: 60, requestsPerMonth: 100_000 },
  enterprise: { requestsPerMinute: 120, requestsPerMonth: 1_000_000 },
};

export const planRank = (plan: PlanName): number => PLANS.indexOf(plan);

export function limitsOf(org: { plan: PlanName; customLimits?: Partial<Limits> | null }): Limits {
  const base = PLAN_LIMITS[org.plan];
  if (org.plan !== 'enterprise' || !org.customLimits) return base;
  return {
    requestsPerMinute: org.customLimits.requestsPerMinute ?? base.requestsPerMinute,
    requestsPerMonth: org.customLimits.requestsPerMonth ?? base.requestsPerMonth,
  };
}
