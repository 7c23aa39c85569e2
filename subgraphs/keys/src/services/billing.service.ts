import { badInput } from '../../../../common/errors';
import type { KeysModels } from '../models';
import { PLANS, type PlanName } from '../plans';
import type { AccountService } from './account.service';

export interface PaymentEventInput {
  eventId: string;
  organizationId: string;
  plan: PlanName;
  requestsPerMinute?: number | null;
  requestsPerMonth?: number | null;
}

/** Applies the payment processor's subscription changes to organizations' plans, once each. */
export class BillingService {
  constructor(
    private readonly models: KeysModels,
    private readonly accounts: AccountService,
  ) {}

  /** False when the event was applied before (processors redeliver). */
  async apply(event: PaymentEventInput): Promise<boolean> {
    if (!(PLANS as readonly string[]).includes(event.plan))
      throw badInput(`Unknown plan ${event.plan}`);
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
      const custom =
        event.requestsPerMinute || event.requestsPerMonth
          ? {
              requestsPerMinute: event.requestsPerMinute ?? undefined,
              requestsPerMonth: event.requestsPerMonth ?? undefined,
            }
          : null;
      await this.accounts.setPlan(event.organizationId, event.plan, custom);
      return true;
    } catch (error) {
      // Not applied: let the processor's retry apply it.
      await this.models.PaymentEvent.deleteOne({ _id: event.eventId });
      throw error;
    }
  }
}
