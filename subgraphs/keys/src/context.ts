import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../../common/platform/subgraph-server';
import type {
  AccountService,
  OrganizationView,
  UserView,
  WebsiteView,
} from './services/account.service';
import type { ApiKeyView, CredentialService } from './services/credential.service';
import type { AccessService, KeyAccessPolicy } from './services/access.service';
import type { CallLogService } from './services/call-log.service';
import type { UsageStatsService } from './services/usage-stats.service';
import type { UsageLedger } from './services/usage-ledger.service';
import type { BillingService } from './services/billing.service';
import type { SignInService } from './services/sign-in.service';
import type { GoalService, GoalView } from './services/goal.service';

export interface KeysDeps {
  access: AccessService;
  accounts: AccountService;
  credentials: CredentialService;
  keyPolicy: KeyAccessPolicy;
  callLog: CallLogService;
  usageStats: UsageStatsService;
  ledger: UsageLedger;
  billing: BillingService;
  signIn: SignInService;
  goals: GoalService;
}

export interface KeysLoaders {
  organization: DataLoader<string, OrganizationView | null>;
  user: DataLoader<string, UserView | null>;
  website: DataLoader<string, WebsiteView | null>;
  apiKey: DataLoader<string, ApiKeyView | null>;
  keyLastUsedAt: DataLoader<string, Date | null>;
  /** Goals of a website, oldest first. */
  goals: DataLoader<string, GoalView[]>;
  [name: string]: unknown;
}

export type KeysContext = SubgraphContext<KeysDeps> & { loaders: KeysLoaders };

function byId<T extends { id: string }>(load: (ids: readonly string[]) => Promise<T[]>) {
  return new DataLoader<string, T | null>(async (ids) => {
    const found = new Map((await load(ids)).map((item) => [item.id, item]));
    return ids.map((id) => found.get(id) ?? null);
  });
}

/** One batch query per entity type per request, however many references a plan resolves. */
export function createKeysLoaders(deps: KeysDeps): KeysLoaders {
  return {
    organization: byId((ids) => deps.accounts.organizationsByIds(ids)),
    user: byId((ids) => deps.accounts.usersByIds(ids)),
    website: byId((ids) => deps.accounts.websitesByIds(ids)),
    apiKey: byId((ids) => deps.credentials.apiKeysByIds(ids)),
    keyLastUsedAt: new DataLoader<string, Date | null>(async (ids) => {
      const found = await deps.callLog.lastUsedAt(ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
    goals: new DataLoader<string, GoalView[]>((ids) => deps.goals.goalsOfWebsites(ids)),
  };
}
