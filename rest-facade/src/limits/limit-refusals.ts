import { Counter } from 'prom-client';
import type { ServiceMetrics } from '../../../common/platform/metrics';
import { PLANS } from '../../../common/contracts/plans';
import type { Tier } from '../auth/api-key-auth';
import type { LimitDecision } from './usage-limiter';

const KINDS = { rate_limited: 'minute', quota_exhausted: 'month' } as const;

/** `api_limit_refusals_total{plan,kind}`: the 429s the limits decide, by the key's plan. */
export class LimitRefusals {
  private readonly refusals: Counter<'plan' | 'kind'>;

  constructor(metrics: ServiceMetrics) {
    this.refusals = new Counter({
      name: 'api_limit_refusals_total',
      help: 'External API calls refused with 429 by the per-minute limit (kind="minute") or the monthly quota (kind="month"), by plan',
      labelNames: ['plan', 'kind'] as const,
      registers: [metrics.registry],
    });
    // Every series exists from the start, so rate() sees the first refusal.
    for (const plan of PLANS)
      for (const kind of Object.values(KINDS)) this.refusals.inc({ plan, kind }, 0);
  }

  /** Counts `decision` when it refuses the call. */
  count(plan: Tier, decision: LimitDecision): void {
    if (decision.outcome === 'admitted') return;
    this.refusals.inc({ plan, kind: KINDS[decision.outcome] });
  }
}
