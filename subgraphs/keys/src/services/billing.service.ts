import { badInput, notFound } from '../../../../common/errors';
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

  /** False when the event was applied before (processors redeliver) or is older than the plan. */
  async apply(event: PaymentEventInput): Promise<boolean> {
    if (!(PLANS as readonly string[]).includes(event.plan))
      throw badInput(`Unknown plan ${event.plan}`);
    const occurredAt = new Date(event.occurredAt);
    if (Number.isNaN(occurredAt.getTime())) throw badInput('occurredAt is not an ISO 8601 date');
    try {
      await this.models.PaymentEvent.create({
        _id: event.eventId,
        organizationId: event.organizationId,
        plan: event.plan,
        appliedAt: new Date(),
      });
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
    try {
      return await this.exclusive(event.organizationId, async () => {
        const current = await this.models.Organization.findById(event.organizationId)
          .select({ planEventAt: 1, customLimits: 1 })
          .lean();
        if (!current) throw notFound('Organization');
        // A late redelivery of an older event must not undo a newer plan change.
        if (current.planEventAt && current.planEventAt.getTime() > occurredAt.getTime())
          return false;
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
        return true;
      });
    } catch (error) {
      // Not applied: let the processor's retry apply it.
      await this.models.PaymentEvent.deleteOne({ _id: event.eventId });
      throw error;
    }
  }
}
