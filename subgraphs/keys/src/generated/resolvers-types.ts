import type { GraphQLResolveInfo } from 'graphql';
import type { OrganizationView, UserView, MembershipView, WebsiteView } from '../services/account.service';
import type { GoalView } from '../services/goal.service';
import type { ApiKeyView, StoredCredential } from '../services/credential.service';
import type { ViewerParent } from '../resolvers/parents';
import type { KeysContext } from '../context';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  _FieldSet: { input: any; output: any; }
};

export type AccessToken = {
  __typename?: 'AccessToken';
  createdAt: Scalars['String']['output'];
  /** When the token stops working (dashboard sessions); null: until revoked. */
  expiresAt?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** When the token was last used, to the minute (null: never, or not in User.accessTokens). */
  lastUsedAt?: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  prefix: Scalars['String']['output'];
  revokedAt?: Maybe<Scalars['String']['output']>;
};

/** One External API call made with a key. */
export type ApiCall = {
  __typename?: 'ApiCall';
  at: Scalars['String']['output'];
  durationMs: Scalars['Float']['output'];
  /** Route pattern, e.g. /api/external/v1/analytics/:websiteId */
  endpoint: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  ip: Scalars['String']['output'];
  method: Scalars['String']['output'];
  path: Scalars['String']['output'];
  /** The X-Request-Id the response carried (null for calls logged before it was recorded). */
  requestId?: Maybe<Scalars['String']['output']>;
  status: Scalars['Int']['output'];
};

export type ApiCallPage = {
  __typename?: 'ApiCallPage';
  /** Pass as `after` to get the next page. */
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  nodes: Array<ApiCall>;
};

export type ApiKey = {
  __typename?: 'ApiKey';
  /** The key's call log, newest first. Dates are ISO 8601; `to` is exclusive. */
  calls: ApiCallPage;
  createdAt: Scalars['String']['output'];
  description?: Maybe<Scalars['String']['output']>;
  expiresAt?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  lastUsedAt?: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  organization: Organization;
  owner: User;
  permissions: Array<Permission>;
  /** First characters of the key, enough to recognise it; never the whole key. */
  prefix: Scalars['String']['output'];
  usage: ApiKeyUsage;
  websiteAccess: WebsiteAccess;
  websites: Array<Website>;
};


export type ApiKeyCallsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  endpoint?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  from?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['String']['input']>;
};

/** Usage statistics of an API key (key details). */
export type ApiKeyUsage = {
  __typename?: 'ApiKeyUsage';
  /** Requests per UTC day over the last 30 days, oldest first. */
  recentActivity: Array<DailyRequests>;
  /** All requests ever made with the key. */
  totalRequests: Scalars['Int']['output'];
};

export type CreateApiKeyInput = {
  description?: InputMaybe<Scalars['String']['input']>;
  /** NEVER, ONE_YEAR (default), NINETY_DAYS or CUSTOM with expiresAt. */
  expiration?: InputMaybe<KeyExpiration>;
  expiresAt?: InputMaybe<Scalars['String']['input']>;
  name: Scalars['String']['input'];
  organizationId: Scalars['ID']['input'];
  /** Defaults to READ_ANALYTICS and TRACK_EVENTS. */
  permissions?: InputMaybe<Array<Permission>>;
  /** Omit (or null) for all websites of the organization. */
  websiteIds?: InputMaybe<Array<Scalars['ID']['input']>>;
};

export type CreateGoalInput = {
  /** EVENT goals only: the ISO 4217 code of the revenue the event carries (e.g. EUR). */
  currency?: InputMaybe<Scalars['String']['input']>;
  /** EVENT goals only: the custom event's name, at most 100 characters. */
  eventName?: InputMaybe<Scalars['String']['input']>;
  kind: GoalKind;
  /** Omitted or blank: `Visit <pagePath>`, or the event name. At most 120 characters. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** PAGE goals only: starts with `/`; `*` matches any characters. Stored percent-encoded, as page paths are recorded. */
  pagePath?: InputMaybe<Scalars['String']['input']>;
  websiteId: Scalars['ID']['input'];
};

export type CreatedAccessToken = {
  __typename?: 'CreatedAccessToken';
  accessToken: AccessToken;
  token: Scalars['String']['output'];
};

/** The only response that ever carries a credential's full value. */
export type CreatedApiKey = {
  __typename?: 'CreatedApiKey';
  apiKey: ApiKey;
  key: Scalars['String']['output'];
};

export type DailyRequests = {
  __typename?: 'DailyRequests';
  date: Scalars['String']['output'];
  requests: Scalars['Int']['output'];
};

/** A website's goal: a page visit or a custom event that counts as a conversion. */
export type Goal = {
  __typename?: 'Goal';
  createdAt: Scalars['String']['output'];
  /** EVENT goals: ISO 4217 code (upper case) of the revenue the event carries; null: no revenue. */
  currency?: Maybe<Scalars['String']['output']>;
  /** EVENT goals: the custom event's name, matched exactly. Null for PAGE goals. */
  eventName?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  kind: GoalKind;
  /** Display name; by default `Visit <pagePath>` or the event name. */
  name: Scalars['String']['output'];
  /**
   * PAGE goals: a path pattern, matched against the whole recorded path (percent-encoded, no query
   * string); `*` matches any characters, `/` included. Null for EVENT goals.
   */
  pagePath?: Maybe<Scalars['String']['output']>;
};

/** What a goal counts as a conversion: a page view whose path matches a pattern, or a custom event. */
export type GoalKind =
  | 'EVENT'
  | 'PAGE';

export type KeyExpiration =
  | 'CUSTOM'
  | 'NEVER'
  | 'NINETY_DAYS'
  | 'ONE_YEAR';

export type Limits = {
  __typename?: 'Limits';
  requestsPerMinute: Scalars['Int']['output'];
  requestsPerMonth: Scalars['Int']['output'];
};

export type Membership = {
  __typename?: 'Membership';
  organization: Organization;
  role: Role;
  user: User;
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Internal: a verified payment-processor event changes a plan. Called by the gateway only. */
  applyPaymentEvent: Scalars['Boolean']['output'];
  createAccessToken: CreatedAccessToken;
  createApiKey: CreatedApiKey;
  /** Owners and admins of the website's organization. A website has at most 100 goals. */
  createGoal: Goal;
  /** Deletes the key; it is refused at once. */
  deleteApiKey: Scalars['Boolean']['output'];
  /** Owners and admins of the website's organization. */
  deleteGoal: Scalars['Boolean']['output'];
  /** Internal: ends the dashboard session whose value has this hash. Gateway only. */
  endSession: Scalars['Boolean']['output'];
  /** Internal: a one-time sign-in link's secret for the user with this email (null: no such user). Gateway only. */
  issueLoginLink?: Maybe<Scalars['String']['output']>;
  /** Internal: redeems a one-time sign-in link for a dashboard session (an access token that expires). Gateway only. */
  redeemLoginLink?: Maybe<CreatedAccessToken>;
  /** Issues a new value; the old one is refused at once. */
  regenerateApiKey: CreatedApiKey;
  /** Internal: sets the usage counters of the organization's month of `at` and of the key that Redis lacks, from the usage ledger. Called by the REST facade only. */
  restoreUsage: Scalars['Boolean']['output'];
  revokeAccessToken: Scalars['Boolean']['output'];
};


export type MutationApplyPaymentEventArgs = {
  input: PaymentEventInput;
};


export type MutationCreateAccessTokenArgs = {
  name: Scalars['String']['input'];
};


export type MutationCreateApiKeyArgs = {
  input: CreateApiKeyInput;
};


export type MutationCreateGoalArgs = {
  input: CreateGoalInput;
};


export type MutationDeleteApiKeyArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeleteGoalArgs = {
  id: Scalars['ID']['input'];
  websiteId: Scalars['ID']['input'];
};


export type MutationEndSessionArgs = {
  secretHash: Scalars['String']['input'];
};


export type MutationIssueLoginLinkArgs = {
  email: Scalars['String']['input'];
};


export type MutationRedeemLoginLinkArgs = {
  secretHash: Scalars['String']['input'];
};


export type MutationRegenerateApiKeyArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRestoreUsageArgs = {
  at: Scalars['String']['input'];
  keyId: Scalars['ID']['input'];
  organizationId: Scalars['ID']['input'];
};


export type MutationRevokeAccessTokenArgs = {
  id: Scalars['ID']['input'];
};

/** An organization, also called a team. It owns websites and pays for a plan. */
export type Organization = {
  __typename?: 'Organization';
  /** API keys of the organization (list view: name, prefix, created, last used). */
  apiKeys: Array<ApiKey>;
  createdAt: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  /** Limits of this organization's plan, including custom Enterprise limits. */
  limits: Limits;
  members: Array<Membership>;
  name: Scalars['String']['output'];
  plan: Plan;
  /** This month's External API use (the dashboard's Usage page). */
  usage: OrganizationUsage;
  websites: Array<Website>;
};

/** An organization's External API use in the current UTC month. */
export type OrganizationUsage = {
  __typename?: 'OrganizationUsage';
  /** Requests made with the organization's keys per UTC day of this month, oldest first, today last. */
  daily: Array<DailyRequests>;
  /** The UTC month, YYYY-MM. */
  month: Scalars['String']['output'];
  /** Requests counted against the monthly quota this month. */
  requests: Scalars['Int']['output'];
  /** When the monthly count starts again (ISO 8601). */
  resetsAt: Scalars['String']['output'];
};

/** Internal: what the gateway forwards of a verified payment-processor event. */
export type PaymentEventInput = {
  eventId: Scalars['ID']['input'];
  /** When the processor created the event (ISO 8601); older events than the plan's are ignored. */
  occurredAt: Scalars['String']['input'];
  organizationId: Scalars['ID']['input'];
  plan: Plan;
  requestsPerMinute?: InputMaybe<Scalars['Int']['input']>;
  requestsPerMonth?: InputMaybe<Scalars['Int']['input']>;
};

export type Permission =
  | 'ADMIN'
  | 'MANAGE_TEAM'
  | 'MANAGE_WEBSITES'
  | 'READ_ANALYTICS'
  | 'TRACK_EVENTS';

/** Subscription tier of an organization (team). FREE cannot use the External API. */
export type Plan =
  | 'ENTERPRISE'
  | 'FREE'
  | 'PRO'
  | 'SCALE';

export type Query = {
  __typename?: 'Query';
  apiKey?: Maybe<ApiKey>;
  /** The user behind the access token or API key. */
  me?: Maybe<User>;
  organization?: Maybe<Organization>;
  /** Internal: called by the gateway with its service identity only. */
  resolveCredential?: Maybe<ResolvedCredential>;
  viewer: Viewer;
  website?: Maybe<Website>;
  /** Public: the website a tracking script belongs to, for any caller (collection, live visitors). */
  websiteByTrackingCode?: Maybe<Website>;
  /** Websites the caller may access. */
  websites: Array<Website>;
};


export type QueryApiKeyArgs = {
  id: Scalars['ID']['input'];
};


export type QueryOrganizationArgs = {
  id: Scalars['ID']['input'];
};


export type QueryResolveCredentialArgs = {
  secretHash: Scalars['String']['input'];
};


export type QueryWebsiteArgs = {
  id: Scalars['ID']['input'];
};


export type QueryWebsiteByTrackingCodeArgs = {
  trackingCode: Scalars['String']['input'];
};

/** What the gateway learns about a presented credential. Internal only. */
export type ResolvedCredential = {
  __typename?: 'ResolvedCredential';
  expiresAt?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  kind: Scalars['String']['output'];
  organizationId?: Maybe<Scalars['ID']['output']>;
  organizationPlan?: Maybe<Plan>;
  permissions: Array<Scalars['String']['output']>;
  userId: Scalars['ID']['output'];
  websiteIds?: Maybe<Array<Scalars['ID']['output']>>;
};

export type Role =
  | 'ADMIN'
  | 'MEMBER'
  | 'OWNER';

export type User = {
  __typename?: 'User';
  /** The user's live access tokens, newest first. Empty unless the caller is this user, with an access token. */
  accessTokens: Array<AccessToken>;
  email: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  memberships: Array<Membership>;
};

/** The authenticated caller and the limits that apply to it. */
export type Viewer = {
  __typename?: 'Viewer';
  apiKey?: Maybe<ApiKey>;
  /** Organization whose plan grants the limits; usage is counted against it. */
  billingOrganization: Organization;
  kind: Scalars['String']['output'];
  limits: Limits;
  /** Tier whose limits apply: the highest plan among the caller's organizations. */
  plan: Plan;
  user: User;
};

export type Website = {
  __typename?: 'Website';
  createdAt: Scalars['String']['output'];
  domain: Scalars['String']['output'];
  /** The website's goals, oldest first (at most 100). For whoever may read the website. */
  goals: Array<Goal>;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  organization: Organization;
  /** Internal: whether the caller may read this website; the analytics subgraph requires it. */
  readableByCaller: Scalars['Boolean']['output'];
  /** Public identifier embedded by the tracking script. */
  trackingCode: Scalars['String']['output'];
};

export type WebsiteAccess =
  | 'ALL'
  | 'SELECTED';



export type ResolverTypeWrapper<T> = Promise<T> | T;

export type ReferenceResolver<TResult, TReference, TContext> = (
      reference: TReference,
      context: TContext,
      info: GraphQLResolveInfo
    ) => Promise<TResult> | TResult;

      type ScalarCheck<T, S> = S extends true ? T : NullableCheck<T, S>;
      type NullableCheck<T, S> = Maybe<T> extends T ? Maybe<ListCheck<NonNullable<T>, S>> : ListCheck<T, S>;
      type ListCheck<T, S> = T extends (infer U)[] ? NullableCheck<U, S>[] : GraphQLRecursivePick<T, S>;
      export type GraphQLRecursivePick<T, S> = { [K in keyof T & keyof S]: ScalarCheck<T[K], S[K]> };
    

export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = {}, TContext = {}, TArgs = {}> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = {}, TContext = {}, TArgs = {}> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = {}, TContext = {}> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = {}, TContext = {}> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = {}, TParent = {}, TContext = {}, TArgs = {}> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;



/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  AccessToken: ResolverTypeWrapper<AccessToken>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  ApiCall: ResolverTypeWrapper<ApiCall>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  ApiCallPage: ResolverTypeWrapper<ApiCallPage>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  ApiKey: ResolverTypeWrapper<ApiKeyView>;
  ApiKeyUsage: ResolverTypeWrapper<ApiKeyUsage>;
  CreateApiKeyInput: CreateApiKeyInput;
  CreateGoalInput: CreateGoalInput;
  CreatedAccessToken: ResolverTypeWrapper<CreatedAccessToken>;
  CreatedApiKey: ResolverTypeWrapper<Omit<CreatedApiKey, 'apiKey'> & { apiKey: ResolversTypes['ApiKey'] }>;
  DailyRequests: ResolverTypeWrapper<DailyRequests>;
  Goal: ResolverTypeWrapper<GoalView>;
  GoalKind: GoalKind;
  KeyExpiration: KeyExpiration;
  Limits: ResolverTypeWrapper<Limits>;
  Membership: ResolverTypeWrapper<MembershipView>;
  Mutation: ResolverTypeWrapper<{}>;
  Organization: ResolverTypeWrapper<OrganizationView>;
  OrganizationUsage: ResolverTypeWrapper<OrganizationUsage>;
  PaymentEventInput: PaymentEventInput;
  Permission: Permission;
  Plan: Plan;
  Query: ResolverTypeWrapper<{}>;
  ResolvedCredential: ResolverTypeWrapper<StoredCredential>;
  Role: Role;
  User: ResolverTypeWrapper<UserView>;
  Viewer: ResolverTypeWrapper<ViewerParent>;
  Website: ResolverTypeWrapper<WebsiteView>;
  WebsiteAccess: WebsiteAccess;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AccessToken: AccessToken;
  String: Scalars['String']['output'];
  ID: Scalars['ID']['output'];
  ApiCall: ApiCall;
  Float: Scalars['Float']['output'];
  Int: Scalars['Int']['output'];
  ApiCallPage: ApiCallPage;
  Boolean: Scalars['Boolean']['output'];
  ApiKey: ApiKeyView;
  ApiKeyUsage: ApiKeyUsage;
  CreateApiKeyInput: CreateApiKeyInput;
  CreateGoalInput: CreateGoalInput;
  CreatedAccessToken: CreatedAccessToken;
  CreatedApiKey: Omit<CreatedApiKey, 'apiKey'> & { apiKey: ResolversParentTypes['ApiKey'] };
  DailyRequests: DailyRequests;
  Goal: GoalView;
  Limits: Limits;
  Membership: MembershipView;
  Mutation: {};
  Organization: OrganizationView;
  OrganizationUsage: OrganizationUsage;
  PaymentEventInput: PaymentEventInput;
  Query: {};
  ResolvedCredential: StoredCredential;
  User: UserView;
  Viewer: ViewerParent;
  Website: WebsiteView;
};

export type AccessTokenResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['AccessToken'] = ResolversParentTypes['AccessToken']> = {
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  expiresAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lastUsedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  prefix?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  revokedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ApiCallResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['ApiCall'] = ResolversParentTypes['ApiCall']> = {
  at?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  durationMs?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  endpoint?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  ip?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  method?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  path?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  requestId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ApiCallPageResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['ApiCallPage'] = ResolversParentTypes['ApiCallPage']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['ApiCall']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ApiKeyResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['ApiKey'] = ResolversParentTypes['ApiKey']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['ApiKey']>, { __typename: 'ApiKey' } & GraphQLRecursivePick<ParentType, {"id":true}>, ContextType>;
  calls?: Resolver<ResolversTypes['ApiCallPage'], ParentType, ContextType, RequireFields<ApiKeyCallsArgs, 'first'>>;
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  expiresAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lastUsedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  organization?: Resolver<ResolversTypes['Organization'], ParentType, ContextType>;
  owner?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
  permissions?: Resolver<Array<ResolversTypes['Permission']>, ParentType, ContextType>;
  prefix?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  usage?: Resolver<ResolversTypes['ApiKeyUsage'], ParentType, ContextType>;
  websiteAccess?: Resolver<ResolversTypes['WebsiteAccess'], ParentType, ContextType>;
  websites?: Resolver<Array<ResolversTypes['Website']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ApiKeyUsageResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['ApiKeyUsage'] = ResolversParentTypes['ApiKeyUsage']> = {
  recentActivity?: Resolver<Array<ResolversTypes['DailyRequests']>, ParentType, ContextType>;
  totalRequests?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type CreatedAccessTokenResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['CreatedAccessToken'] = ResolversParentTypes['CreatedAccessToken']> = {
  accessToken?: Resolver<ResolversTypes['AccessToken'], ParentType, ContextType>;
  token?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type CreatedApiKeyResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['CreatedApiKey'] = ResolversParentTypes['CreatedApiKey']> = {
  apiKey?: Resolver<ResolversTypes['ApiKey'], ParentType, ContextType>;
  key?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type DailyRequestsResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['DailyRequests'] = ResolversParentTypes['DailyRequests']> = {
  date?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  requests?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type GoalResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['Goal'] = ResolversParentTypes['Goal']> = {
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  currency?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  eventName?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['GoalKind'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  pagePath?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type LimitsResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['Limits'] = ResolversParentTypes['Limits']> = {
  requestsPerMinute?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  requestsPerMonth?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type MembershipResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['Membership'] = ResolversParentTypes['Membership']> = {
  organization?: Resolver<ResolversTypes['Organization'], ParentType, ContextType>;
  role?: Resolver<ResolversTypes['Role'], ParentType, ContextType>;
  user?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type MutationResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  applyPaymentEvent?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType, RequireFields<MutationApplyPaymentEventArgs, 'input'>>;
  createAccessToken?: Resolver<ResolversTypes['CreatedAccessToken'], ParentType, ContextType, RequireFields<MutationCreateAccessTokenArgs, 'name'>>;
  createApiKey?: Resolver<ResolversTypes['CreatedApiKey'], ParentType, ContextType, RequireFields<MutationCreateApiKeyArgs, 'input'>>;
  createGoal?: Resolver<ResolversTypes['Goal'], ParentType, ContextType, RequireFields<MutationCreateGoalArgs, 'input'>>;
  deleteApiKey?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType, RequireFields<MutationDeleteApiKeyArgs, 'id'>>;
  deleteGoal?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType, RequireFields<MutationDeleteGoalArgs, 'id' | 'websiteId'>>;
  endSession?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType, RequireFields<MutationEndSessionArgs, 'secretHash'>>;
  issueLoginLink?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType, RequireFields<MutationIssueLoginLinkArgs, 'email'>>;
  redeemLoginLink?: Resolver<Maybe<ResolversTypes['CreatedAccessToken']>, ParentType, ContextType, RequireFields<MutationRedeemLoginLinkArgs, 'secretHash'>>;
  regenerateApiKey?: Resolver<ResolversTypes['CreatedApiKey'], ParentType, ContextType, RequireFields<MutationRegenerateApiKeyArgs, 'id'>>;
  restoreUsage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType, RequireFields<MutationRestoreUsageArgs, 'at' | 'keyId' | 'organizationId'>>;
  revokeAccessToken?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType, RequireFields<MutationRevokeAccessTokenArgs, 'id'>>;
};

export type OrganizationResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['Organization'] = ResolversParentTypes['Organization']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Organization']>, { __typename: 'Organization' } & GraphQLRecursivePick<ParentType, {"id":true}>, ContextType>;
  apiKeys?: Resolver<Array<ResolversTypes['ApiKey']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  limits?: Resolver<ResolversTypes['Limits'], ParentType, ContextType>;
  members?: Resolver<Array<ResolversTypes['Membership']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  plan?: Resolver<ResolversTypes['Plan'], ParentType, ContextType>;
  usage?: Resolver<ResolversTypes['OrganizationUsage'], ParentType, ContextType>;
  websites?: Resolver<Array<ResolversTypes['Website']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type OrganizationUsageResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['OrganizationUsage'] = ResolversParentTypes['OrganizationUsage']> = {
  daily?: Resolver<Array<ResolversTypes['DailyRequests']>, ParentType, ContextType>;
  month?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  requests?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  resetsAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type QueryResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  apiKey?: Resolver<Maybe<ResolversTypes['ApiKey']>, ParentType, ContextType, RequireFields<QueryApiKeyArgs, 'id'>>;
  me?: Resolver<Maybe<ResolversTypes['User']>, ParentType, ContextType>;
  organization?: Resolver<Maybe<ResolversTypes['Organization']>, ParentType, ContextType, RequireFields<QueryOrganizationArgs, 'id'>>;
  resolveCredential?: Resolver<Maybe<ResolversTypes['ResolvedCredential']>, ParentType, ContextType, RequireFields<QueryResolveCredentialArgs, 'secretHash'>>;
  viewer?: Resolver<ResolversTypes['Viewer'], ParentType, ContextType>;
  website?: Resolver<Maybe<ResolversTypes['Website']>, ParentType, ContextType, RequireFields<QueryWebsiteArgs, 'id'>>;
  websiteByTrackingCode?: Resolver<Maybe<ResolversTypes['Website']>, ParentType, ContextType, RequireFields<QueryWebsiteByTrackingCodeArgs, 'trackingCode'>>;
  websites?: Resolver<Array<ResolversTypes['Website']>, ParentType, ContextType>;
};

export type ResolvedCredentialResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['ResolvedCredential'] = ResolversParentTypes['ResolvedCredential']> = {
  expiresAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  organizationId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  organizationPlan?: Resolver<Maybe<ResolversTypes['Plan']>, ParentType, ContextType>;
  permissions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  userId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  websiteIds?: Resolver<Maybe<Array<ResolversTypes['ID']>>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type UserResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['User'] = ResolversParentTypes['User']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['User']>, { __typename: 'User' } & GraphQLRecursivePick<ParentType, {"id":true}>, ContextType>;
  accessTokens?: Resolver<Array<ResolversTypes['AccessToken']>, ParentType, ContextType>;
  email?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  memberships?: Resolver<Array<ResolversTypes['Membership']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ViewerResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['Viewer'] = ResolversParentTypes['Viewer']> = {
  apiKey?: Resolver<Maybe<ResolversTypes['ApiKey']>, ParentType, ContextType>;
  billingOrganization?: Resolver<ResolversTypes['Organization'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  limits?: Resolver<ResolversTypes['Limits'], ParentType, ContextType>;
  plan?: Resolver<ResolversTypes['Plan'], ParentType, ContextType>;
  user?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebsiteResolvers<ContextType = KeysContext, ParentType extends ResolversParentTypes['Website'] = ResolversParentTypes['Website']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Website']>, { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}>, ContextType>;
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  domain?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  goals?: Resolver<Array<ResolversTypes['Goal']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  organization?: Resolver<ResolversTypes['Organization'], ParentType, ContextType>;
  readableByCaller?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  trackingCode?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type Resolvers<ContextType = KeysContext> = {
  AccessToken?: AccessTokenResolvers<ContextType>;
  ApiCall?: ApiCallResolvers<ContextType>;
  ApiCallPage?: ApiCallPageResolvers<ContextType>;
  ApiKey?: ApiKeyResolvers<ContextType>;
  ApiKeyUsage?: ApiKeyUsageResolvers<ContextType>;
  CreatedAccessToken?: CreatedAccessTokenResolvers<ContextType>;
  CreatedApiKey?: CreatedApiKeyResolvers<ContextType>;
  DailyRequests?: DailyRequestsResolvers<ContextType>;
  Goal?: GoalResolvers<ContextType>;
  Limits?: LimitsResolvers<ContextType>;
  Membership?: MembershipResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  Organization?: OrganizationResolvers<ContextType>;
  OrganizationUsage?: OrganizationUsageResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  ResolvedCredential?: ResolvedCredentialResolvers<ContextType>;
  User?: UserResolvers<ContextType>;
  Viewer?: ViewerResolvers<ContextType>;
  Website?: WebsiteResolvers<ContextType>;
};

