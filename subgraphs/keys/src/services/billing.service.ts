import { badInput, notFound } from '../../../../common/platform/errors';
import type { KeysModels } from '../models';
import { PLANS, type PlanName } from '../plans';
import type { AccountService } from './account.service';

export interface PaymentEventInput {
  eventId: string;
  organizationId: string;
  /** When the processor created the event (ISO 8601): processors deliver out of order. */
  occurredAt: string;
  plan: PlanName;
  requestsPerMinute?: number | null;
  requestsPerMonth?: number | null;
}

/**
 * Applies the payment processor's subscription changes to organizations' plans, once each, and
 * never an older event over a newer one.
 */
export class BillingService {
  constructor(
    private readonly models: KeysModels,
    private readonly accounts: AccountService,
    /** Runs plan changes of one organization one at a time (see CredentialHooks.exclusive). */
    private readonly exclusive: <T>(organizationId: string, change: () => Promise<T>) => Promise<T>,
  ) {}

  /**
   * False when the event was applied before (processors redeliver) or is older than the plan.
   * Everything happens under the organization's lock, and the event is recorded as applied only
   * after the plan changed: a delivery that fails (busy, database gone) leaves no trace, so the
   * processor's redelivery applies it, and a redelivery racing the first one waits for it rather
   * than being acknowledged before the change is made.
   */
  async apply(event: PaymentEventInput): Promise<boolean> {
    if (!(PLANS as readonly string[]).includes(event.plan))
      throw badInput(`Unknown plan ${event.plan}`);
    const occurredAt = new Date(event.occurredAt);
    if (Number.isNaN(occurredAt.getTime())) throw badInput('occurredAt is not an ISO 8601 date');
    return this.exclusive(event.organizationId, async () => {
      if (await this.models.PaymentEvent.exists({ _id: event.eventId })) return false;
      const current = await this.models.Organization.findById(event.organizationId)
        .select({ planEventAt: 1, customLimits: 1 })
        .lean();
      if (!current) throw notFound('Organization');
      // A late redelivery of an older event must not undo a newer plan change.
      const stale = current.planEventAt && current.planEventAt.getTime() > occurredAt.getTime();
      if (!stale) {
        // Limits the event leaves out stay as support set them (for an Enterprise team).
        const custom =
          event.requestsPerMinute || event.requestsPerMonth
            ? {
                requestsPerMinute:
                  event.requestsPerMinute ?? current.customLimits?.requestsPerMinute ?? undefined,
                requestsPerMonth:
                  event.requestsPerMonth ?? current.customLimits?.requestsPerMonth ?? undefined,
              }
            : undefined;
        await this.accounts.setPlan(event.organizationId, event.plan, custom, occurredAt);
      }
      // Setting the same plan again is harmless, so a failure here only means the next
      // redelivery sets it once more before it is recorded.
      await this.models.PaymentEvent.updateOne(
        { _id: event.eventId },
        {
          $setOnInsert: {
            organizationId: event.organizationId,
            plan: event.plan,
            appliedAt: new Date(),
          },
        },
        { upsert: true },
      );
      return !stale;
    });
  }
}
