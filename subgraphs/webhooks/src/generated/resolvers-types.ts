import type { GraphQLResolveInfo } from 'graphql';
import type { WebhookView } from '../services/webhook.service';
import type { DeliveryView, AttemptView } from '../services/delivery.service';
import type { WebhooksContext } from '../context';
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

export type CreateWebhookInput = {
  /** Analytics alert settings; omitted fields take their defaults. */
  alerts?: InputMaybe<WebhookAlertsInput>;
  description?: InputMaybe<Scalars['String']['input']>;
  /** Event types to deliver; omitted or empty means all. */
  eventTypes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Absolute https URL (http only outside production) of a public receiver. */
  url: Scalars['String']['input'];
};

export type Mutation = {
  __typename?: 'Mutation';
  createWebhook: WebhookWithSecret;
  /** Revokes for good: nothing more is delivered, queued retries included. */
  deleteWebhook: Webhook;
  /**
   * Brings a disabled webhook back (active, its disabled reason cleared): deliveries resume with
   * the next event. An active webhook is returned as it is.
   */
  enableWebhook: Webhook;
  /**
   * Queues once more every failed delivery of the webhook (tests aside) created at or after `since`
   * (an ISO 8601 instant): one more attempt each, now, final whatever its outcome.
   * CONFLICT for a disabled webhook.
   */
  recoverWebhookDeliveries: WebhookRecovery;
  /**
   * Sends a succeeded or failed delivery once more, now (same event id and payload, signed with the
   * current secret), as its next attempt, and reports the receiver's answer. NOT_FOUND for another
   * webhook's delivery; CONFLICT while it is pending; counted with tests (10 a minute per user).
   */
  redeliverWebhookDelivery: WebhookTestResult;
  /** Replaces the signing secret; the old one stops validating at once. */
  rotateWebhookSecret: WebhookWithSecret;
  /** Changes the webhook's analytics alert settings. */
  setWebhookAlerts: Webhook;
  /** Sends a synthetic webhook.test event now and reports the receiver's answer. */
  testWebhook: WebhookTestResult;
};


export type MutationCreateWebhookArgs = {
  input: CreateWebhookInput;
};


export type MutationDeleteWebhookArgs = {
  id: Scalars['ID']['input'];
};


export type MutationEnableWebhookArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRecoverWebhookDeliveriesArgs = {
  since: Scalars['String']['input'];
  webhookId: Scalars['ID']['input'];
};


export type MutationRedeliverWebhookDeliveryArgs = {
  deliveryId: Scalars['ID']['input'];
  webhookId: Scalars['ID']['input'];
};


export type MutationRotateWebhookSecretArgs = {
  id: Scalars['ID']['input'];
};


export type MutationSetWebhookAlertsArgs = {
  id: Scalars['ID']['input'];
  input: WebhookAlertsInput;
};


export type MutationTestWebhookArgs = {
  id: Scalars['ID']['input'];
};

export type Query = {
  __typename?: 'Query';
  /** The caller's webhooks (access tokens only). */
  myWebhooks: Array<Webhook>;
  /**
   * A page of one of the caller's webhooks' deliveries, latest first (access tokens only; NOT_FOUND
   * for an unknown, revoked or another user's webhook). `since` (inclusive) and `until` (exclusive)
   * are ISO 8601 instants bounding when a delivery was created; `limit` is 1 to 100;
   * `startingAfter` is the last delivery id of the previous page.
   */
  webhookDeliveries: WebhookDeliveryPage;
  /** Every event type, with what its data holds. */
  webhookEventCatalogue: Array<WebhookEventType>;
  /** Event types a webhook may subscribe to. */
  webhookEventTypes: Array<Scalars['String']['output']>;
};


export type QueryWebhookDeliveriesArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  since?: InputMaybe<Scalars['String']['input']>;
  startingAfter?: InputMaybe<Scalars['ID']['input']>;
  status?: InputMaybe<WebhookDeliveryStatus>;
  until?: InputMaybe<Scalars['String']['input']>;
  webhookId: Scalars['ID']['input'];
};

/** A user, owned by the keys subgraph; webhooks adds the user's webhooks. */
export type User = {
  __typename?: 'User';
  id: Scalars['ID']['output'];
  webhooks: Array<Webhook>;
};

/** An outbound webhook owned by a user. Its signing secret is never readable. */
export type Webhook = {
  __typename?: 'Webhook';
  /** Which analytics findings (traffic.spike, traffic.drop, report.daily, goal.reached) are delivered, and when. */
  alerts: WebhookAlerts;
  createdAt: Scalars['String']['output'];
  /** Latest deliveries first, with every attempt (at most 100). */
  deliveries: Array<WebhookDelivery>;
  description?: Maybe<Scalars['String']['output']>;
  /** Why the webhook was disabled, when it was. */
  disabledReason?: Maybe<Scalars['String']['output']>;
  /** Event types delivered; empty means all. */
  eventTypes: Array<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  owner: User;
  /** When the signing secret was last rotated. */
  secretRotatedAt?: Maybe<Scalars['String']['output']>;
  status: WebhookStatus;
  url: Scalars['String']['output'];
};


/** An outbound webhook owned by a user. Its signing secret is never readable. */
export type WebhookDeliveriesArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
};

/** A webhook's analytics alert settings. */
export type WebhookAlerts = {
  __typename?: 'WebhookAlerts';
  /** traffic.drop is delivered when visitors / baseline is at most this (0 to 0.67; default 0.5). */
  dropRatio: Scalars['Float']['output'];
  /** goal.reached for the day's first conversion and, when set, each time the count passes a multiple of it (1 to 1000000; default null). */
  goalEvery?: Maybe<Scalars['Int']['output']>;
  /** report.daily is delivered at this UTC hour (0 to 23; default 8). */
  reportHour: Scalars['Int']['output'];
  /** traffic.spike is delivered when visitors / baseline is at least this (1.5 to 100; default 2). */
  spikeRatio: Scalars['Float']['output'];
  /** Websites whose findings are delivered; null: every website the owner may read. */
  websiteIds?: Maybe<Array<Scalars['ID']['output']>>;
};

/** Alert settings to change; an omitted field keeps its value (websiteIds: null means every website). */
export type WebhookAlertsInput = {
  dropRatio?: InputMaybe<Scalars['Float']['input']>;
  /** null: the day's first conversion only. */
  goalEvery?: InputMaybe<Scalars['Int']['input']>;
  reportHour?: InputMaybe<Scalars['Int']['input']>;
  spikeRatio?: InputMaybe<Scalars['Float']['input']>;
  websiteIds?: InputMaybe<Array<Scalars['ID']['input']>>;
};

/** One event sent (or to be sent) to one webhook. */
export type WebhookDelivery = {
  __typename?: 'WebhookDelivery';
  attempts: Array<WebhookDeliveryAttempt>;
  createdAt: Scalars['String']['output'];
  eventId: Scalars['ID']['output'];
  eventType: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  /** When the next retry is due; null once the delivery is settled. */
  nextAttemptAt?: Maybe<Scalars['String']['output']>;
  status: WebhookDeliveryStatus;
  /** True for the synthetic events of testWebhook. */
  test: Scalars['Boolean']['output'];
};

export type WebhookDeliveryAttempt = {
  __typename?: 'WebhookDeliveryAttempt';
  at: Scalars['String']['output'];
  attempt: Scalars['Int']['output'];
  durationMs: Scalars['Int']['output'];
  /** Why there was no answer (timeout, connection refused, destination refused…). */
  error?: Maybe<Scalars['String']['output']>;
  /** The start of the receiver's answer (truncated). */
  responseBody: Scalars['String']['output'];
  /** The receiver's HTTP status; null when it did not answer. */
  statusCode?: Maybe<Scalars['Int']['output']>;
};

/** A page of a webhook's deliveries. */
export type WebhookDeliveryPage = {
  __typename?: 'WebhookDeliveryPage';
  /** Latest first (then by id), each with every attempt. */
  deliveries: Array<WebhookDelivery>;
  /** Whether more deliveries match: pass the last one's id as startingAfter for the next page. */
  hasMore: Scalars['Boolean']['output'];
};

export type WebhookDeliveryStatus =
  | 'CANCELLED'
  | 'FAILED'
  | 'PENDING'
  | 'SUCCEEDED';

/** An event type of the catalogue. */
export type WebhookEventType = {
  __typename?: 'WebhookEventType';
  description: Scalars['String']['output'];
  /** The JSON Schema (2020-12) of the event's data, as JSON text. */
  schema: Scalars['String']['output'];
  /** False for webhook.test, sent on request only. */
  subscribable: Scalars['Boolean']['output'];
  type: Scalars['String']['output'];
};

/** What a recovery queued. */
export type WebhookRecovery = {
  __typename?: 'WebhookRecovery';
  /** Failed deliveries queued for one more attempt. */
  queued: Scalars['Int']['output'];
};

export type WebhookStatus =
  | 'ACTIVE'
  /** The receiver answered 410 Gone; nothing more is delivered. */
  | 'DISABLED'
  | 'REVOKED';

/** The outcome of one attempt sent on request: a test or a redelivery. */
export type WebhookTestResult = {
  __typename?: 'WebhookTestResult';
  deliveryId: Scalars['ID']['output'];
  durationMs: Scalars['Int']['output'];
  error?: Maybe<Scalars['String']['output']>;
  eventId: Scalars['ID']['output'];
  responseBody: Scalars['String']['output'];
  responseBodyTruncated: Scalars['Boolean']['output'];
  statusCode?: Maybe<Scalars['Int']['output']>;
  /** True when the receiver answered 2xx. */
  success: Scalars['Boolean']['output'];
};

/** A webhook with its signing secret: returned only on creation and rotation. */
export type WebhookWithSecret = {
  __typename?: 'WebhookWithSecret';
  secret: Scalars['String']['output'];
  webhook: Webhook;
};



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
  CreateWebhookInput: CreateWebhookInput;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  Mutation: ResolverTypeWrapper<{}>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Query: ResolverTypeWrapper<{}>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  User: ResolverTypeWrapper<{ id: string }>;
  Webhook: ResolverTypeWrapper<WebhookView>;
  WebhookAlerts: ResolverTypeWrapper<WebhookAlerts>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  WebhookAlertsInput: WebhookAlertsInput;
  WebhookDelivery: ResolverTypeWrapper<DeliveryView>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  WebhookDeliveryAttempt: ResolverTypeWrapper<AttemptView>;
  WebhookDeliveryPage: ResolverTypeWrapper<Omit<WebhookDeliveryPage, 'deliveries'> & { deliveries: Array<ResolversTypes['WebhookDelivery']> }>;
  WebhookDeliveryStatus: WebhookDeliveryStatus;
  WebhookEventType: ResolverTypeWrapper<WebhookEventType>;
  WebhookRecovery: ResolverTypeWrapper<WebhookRecovery>;
  WebhookStatus: WebhookStatus;
  WebhookTestResult: ResolverTypeWrapper<WebhookTestResult>;
  WebhookWithSecret: ResolverTypeWrapper<Omit<WebhookWithSecret, 'webhook'> & { webhook: ResolversTypes['Webhook'] }>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  CreateWebhookInput: CreateWebhookInput;
  String: Scalars['String']['output'];
  Mutation: {};
  ID: Scalars['ID']['output'];
  Query: {};
  Int: Scalars['Int']['output'];
  User: { id: string };
  Webhook: WebhookView;
  WebhookAlerts: WebhookAlerts;
  Float: Scalars['Float']['output'];
  WebhookAlertsInput: WebhookAlertsInput;
  WebhookDelivery: DeliveryView;
  Boolean: Scalars['Boolean']['output'];
  WebhookDeliveryAttempt: AttemptView;
  WebhookDeliveryPage: Omit<WebhookDeliveryPage, 'deliveries'> & { deliveries: Array<ResolversParentTypes['WebhookDelivery']> };
  WebhookEventType: WebhookEventType;
  WebhookRecovery: WebhookRecovery;
  WebhookTestResult: WebhookTestResult;
  WebhookWithSecret: Omit<WebhookWithSecret, 'webhook'> & { webhook: ResolversParentTypes['Webhook'] };
};

export type MutationResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  createWebhook?: Resolver<ResolversTypes['WebhookWithSecret'], ParentType, ContextType, RequireFields<MutationCreateWebhookArgs, 'input'>>;
  deleteWebhook?: Resolver<ResolversTypes['Webhook'], ParentType, ContextType, RequireFields<MutationDeleteWebhookArgs, 'id'>>;
  enableWebhook?: Resolver<ResolversTypes['Webhook'], ParentType, ContextType, RequireFields<MutationEnableWebhookArgs, 'id'>>;
  recoverWebhookDeliveries?: Resolver<ResolversTypes['WebhookRecovery'], ParentType, ContextType, RequireFields<MutationRecoverWebhookDeliveriesArgs, 'since' | 'webhookId'>>;
  redeliverWebhookDelivery?: Resolver<ResolversTypes['WebhookTestResult'], ParentType, ContextType, RequireFields<MutationRedeliverWebhookDeliveryArgs, 'deliveryId' | 'webhookId'>>;
  rotateWebhookSecret?: Resolver<ResolversTypes['WebhookWithSecret'], ParentType, ContextType, RequireFields<MutationRotateWebhookSecretArgs, 'id'>>;
  setWebhookAlerts?: Resolver<ResolversTypes['Webhook'], ParentType, ContextType, RequireFields<MutationSetWebhookAlertsArgs, 'id' | 'input'>>;
  testWebhook?: Resolver<ResolversTypes['WebhookTestResult'], ParentType, ContextType, RequireFields<MutationTestWebhookArgs, 'id'>>;
};

export type QueryResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  myWebhooks?: Resolver<Array<ResolversTypes['Webhook']>, ParentType, ContextType>;
  webhookDeliveries?: Resolver<ResolversTypes['WebhookDeliveryPage'], ParentType, ContextType, RequireFields<QueryWebhookDeliveriesArgs, 'limit' | 'webhookId'>>;
  webhookEventCatalogue?: Resolver<Array<ResolversTypes['WebhookEventType']>, ParentType, ContextType>;
  webhookEventTypes?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
};

export type UserResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['User'] = ResolversParentTypes['User']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['User']>, { __typename: 'User' } & GraphQLRecursivePick<ParentType, {"id":true}>, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  webhooks?: Resolver<Array<ResolversTypes['Webhook']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebhookResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['Webhook'] = ResolversParentTypes['Webhook']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Webhook']>, { __typename: 'Webhook' } & GraphQLRecursivePick<ParentType, {"id":true}>, ContextType>;
  alerts?: Resolver<ResolversTypes['WebhookAlerts'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  deliveries?: Resolver<Array<ResolversTypes['WebhookDelivery']>, ParentType, ContextType, RequireFields<WebhookDeliveriesArgs, 'limit'>>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  disabledReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  eventTypes?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  owner?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
  secretRotatedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['WebhookStatus'], ParentType, ContextType>;
  url?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebhookAlertsResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['WebhookAlerts'] = ResolversParentTypes['WebhookAlerts']> = {
  dropRatio?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  goalEvery?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  reportHour?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  spikeRatio?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  websiteIds?: Resolver<Maybe<Array<ResolversTypes['ID']>>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebhookDeliveryResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['WebhookDelivery'] = ResolversParentTypes['WebhookDelivery']> = {
  attempts?: Resolver<Array<ResolversTypes['WebhookDeliveryAttempt']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  eventId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  eventType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  nextAttemptAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['WebhookDeliveryStatus'], ParentType, ContextType>;
  test?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebhookDeliveryAttemptResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['WebhookDeliveryAttempt'] = ResolversParentTypes['WebhookDeliveryAttempt']> = {
  at?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  attempt?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  durationMs?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  responseBody?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  statusCode?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebhookDeliveryPageResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['WebhookDeliveryPage'] = ResolversParentTypes['WebhookDeliveryPage']> = {
  deliveries?: Resolver<Array<ResolversTypes['WebhookDelivery']>, ParentType, ContextType>;
  hasMore?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebhookEventTypeResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['WebhookEventType'] = ResolversParentTypes['WebhookEventType']> = {
  description?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  schema?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  subscribable?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebhookRecoveryResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['WebhookRecovery'] = ResolversParentTypes['WebhookRecovery']> = {
  queued?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebhookTestResultResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['WebhookTestResult'] = ResolversParentTypes['WebhookTestResult']> = {
  deliveryId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  durationMs?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  eventId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  responseBody?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  responseBodyTruncated?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  statusCode?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  success?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebhookWithSecretResolvers<ContextType = WebhooksContext, ParentType extends ResolversParentTypes['WebhookWithSecret'] = ResolversParentTypes['WebhookWithSecret']> = {
  secret?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  webhook?: Resolver<ResolversTypes['Webhook'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type Resolvers<ContextType = WebhooksContext> = {
  Mutation?: MutationResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  User?: UserResolvers<ContextType>;
  Webhook?: WebhookResolvers<ContextType>;
  WebhookAlerts?: WebhookAlertsResolvers<ContextType>;
  WebhookDelivery?: WebhookDeliveryResolvers<ContextType>;
  WebhookDeliveryAttempt?: WebhookDeliveryAttemptResolvers<ContextType>;
  WebhookDeliveryPage?: WebhookDeliveryPageResolvers<ContextType>;
  WebhookEventType?: WebhookEventTypeResolvers<ContextType>;
  WebhookRecovery?: WebhookRecoveryResolvers<ContextType>;
  WebhookTestResult?: WebhookTestResultResolvers<ContextType>;
  WebhookWithSecret?: WebhookWithSecretResolvers<ContextType>;
};

