import type { Plan } from '../gql/graphql';

const PLAN_NAMES: Record<Plan, string> = {
  FREE: 'Free',
  PRO: 'Pro',
  SCALE: 'Scale',
  ENTERPRISE: 'Enterprise',
};

export const planName = (plan: Plan): string => PLAN_NAMES[plan];
