/* eslint-disable */
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /**
   * The busiest cells of a heatmap page, most clicked first (at most 100), each as [x, y, clicks]: x
   * in whole percent of the viewport width (0 to 99), y the 50px band of the document from the top
   * (400 collects every click below 20,000 px). Triples rather than objects: a list of a hundred
   * heatmap pages holds ten thousand cells.
   */
  HeatmapCells: { input: unknown; output: unknown; }
  /**
   * An event-level query (POST /query/:websiteId, docs/analytics.md): the normalized form of
   * common/contracts/stats-query.ts, as JSON. Input only.
   */
  StatsQuery: { input: unknown; output: unknown; }
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

export type AnalyticsOverview = {
  __typename?: 'AnalyticsOverview';
  from: Scalars['String']['output'];
  /** hour or day */
  granularity: Scalars['String']['output'];
  range: AnalyticsRange;
  /** One zero-filled entry per bucket of the range, oldest first. */
  series: Array<TimeBucketStats>;
  summary: AnalyticsSummary;
  to: Scalars['String']['output'];
};

/** Time window ending now. 24 hours are read in hour buckets; the others in UTC day buckets. */
export type AnalyticsRange =
  | 'LAST_7_DAYS'
  | 'LAST_24_HOURS'
  | 'LAST_30_DAYS'
  | 'LAST_90_DAYS'
  | 'LAST_YEAR';

export type AnalyticsSummary = {
  __typename?: 'AnalyticsSummary';
  /** Seconds per session. */
  avgVisitDuration: Scalars['Float']['output'];
  /** Share of sessions with exactly one page view, 0 to 1. */
  bounceRate: Scalars['Float']['output'];
  pageviews: Scalars['Int']['output'];
  sessions: Scalars['Int']['output'];
  /** Visits (sessions) in the range; one visitor can make several. */
  totalVisitors: Scalars['Int']['output'];
  /** Distinct visitors per bucket, summed (visitor ids rotate daily, so a visitor is counted once per day). */
  uniqueVisitors: Scalars['Int']['output'];
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

export type Breakdown = {
  __typename?: 'Breakdown';
  dimension: BreakdownDimension;
  pagination: Pagination;
  rows: Array<BreakdownRow>;
};

export type BreakdownDimension =
  | 'BROWSER'
  | 'COUNTRY'
  | 'DEVICE'
  | 'EVENT'
  | 'OS'
  | 'PAGE'
  | 'SOURCE';

export type BreakdownRow = {
  __typename?: 'BreakdownRow';
  avgVisitDuration: Scalars['Float']['output'];
  bounceRate: Scalars['Float']['output'];
  events: Scalars['Int']['output'];
  pageviews: Scalars['Int']['output'];
  sessions: Scalars['Int']['output'];
  value: Scalars['String']['output'];
  visitors: Scalars['Int']['output'];
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

export type CreateWebhookInput = {
  /** Analytics alert settings; omitted fields take their defaults. */
  alerts?: InputMaybe<WebhookAlertsInput>;
  description?: InputMaybe<Scalars['String']['input']>;
  /** Event types to deliver; omitted or empty means all. */
  eventTypes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Absolute https URL (http only outside production) of a public receiver. */
  url: Scalars['String']['input'];
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

export type ErrorGroup = {
  __typename?: 'ErrorGroup';
  /** Distinct visitors affected in the range (per day, summed). */
  affectedVisitors: Scalars['Int']['output'];
  fingerprint: Scalars['ID']['output'];
  firstSeen: Scalars['String']['output'];
  lastPage?: Maybe<Scalars['String']['output']>;
  lastSeen: Scalars['String']['output'];
  message: Scalars['String']['output'];
  /** Occurrences in the range. */
  occurrences: Scalars['Int']['output'];
  stack?: Maybe<Scalars['String']['output']>;
  totalOccurrences: Scalars['Int']['output'];
};

export type ErrorGroupList = {
  __typename?: 'ErrorGroupList';
  groups: Array<ErrorGroup>;
  pagination: Pagination;
};

/** A goal of a website, owned by the keys subgraph: what POST /query counts as a conversion. */
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

export type HeatmapPage = {
  __typename?: 'HeatmapPage';
  cells: Scalars['HeatmapCells']['output'];
  clicks: Scalars['Int']['output'];
  path: Scalars['String']['output'];
  visitors: Scalars['Int']['output'];
};

export type HeatmapPageList = {
  __typename?: 'HeatmapPageList';
  pages: Array<HeatmapPage>;
  pagination: Pagination;
};

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
  createAccessToken: CreatedAccessToken;
  createApiKey: CreatedApiKey;
  /** Owners and admins of the website's organization. A website has at most 100 goals. */
  createGoal: Goal;
  createWebhook: WebhookWithSecret;
  /** Deletes the key; it is refused at once. */
  deleteApiKey: Scalars['Boolean']['output'];
  /** Owners and admins of the website's organization. */
  deleteGoal: Scalars['Boolean']['output'];
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
  /** Issues a new value; the old one is refused at once. */
  regenerateApiKey: CreatedApiKey;
  revokeAccessToken: Scalars['Boolean']['output'];
  /** Replaces the signing secret; the old one stops validating at once. */
  rotateWebhookSecret: WebhookWithSecret;
  /** Changes the webhook's analytics alert settings. */
  setWebhookAlerts: Webhook;
  /** Sends a synthetic webhook.test event now and reports the receiver's answer. */
  testWebhook: WebhookTestResult;
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


export type MutationCreateWebhookArgs = {
  input: CreateWebhookInput;
};


export type MutationDeleteApiKeyArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeleteGoalArgs = {
  id: Scalars['ID']['input'];
  websiteId: Scalars['ID']['input'];
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


export type MutationRegenerateApiKeyArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRevokeAccessTokenArgs = {
  id: Scalars['ID']['input'];
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

export type Pagination = {
  __typename?: 'Pagination';
  hasMore: Scalars['Boolean']['output'];
  limit: Scalars['Int']['output'];
  offset: Scalars['Int']['output'];
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
  /** The caller's webhooks (access tokens only). */
  myWebhooks: Array<Webhook>;
  organization?: Maybe<Organization>;
  viewer: Viewer;
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


export type QueryWebhookDeliveriesArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  since?: InputMaybe<Scalars['String']['input']>;
  startingAfter?: InputMaybe<Scalars['ID']['input']>;
  status?: InputMaybe<WebhookDeliveryStatus>;
  until?: InputMaybe<Scalars['String']['input']>;
  webhookId: Scalars['ID']['input'];
};


export type QueryWebsiteArgs = {
  id: Scalars['ID']['input'];
};


export type QueryWebsiteByTrackingCodeArgs = {
  trackingCode: Scalars['String']['input'];
};

export type ReplaySession = {
  __typename?: 'ReplaySession';
  browser?: Maybe<Scalars['String']['output']>;
  bytes: Scalars['Int']['output'];
  chunks: Scalars['Int']['output'];
  country?: Maybe<Scalars['String']['output']>;
  device?: Maybe<Scalars['String']['output']>;
  entryPage: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  lastActivity: Scalars['String']['output'];
  os?: Maybe<Scalars['String']['output']>;
  startedAt: Scalars['String']['output'];
  visitorId: Scalars['String']['output'];
};

export type ReplaySessionList = {
  __typename?: 'ReplaySessionList';
  pagination: Pagination;
  sessions: Array<ReplaySession>;
};

export type Role =
  | 'ADMIN'
  | 'MEMBER'
  | 'OWNER';

export type StatsAnswer = {
  __typename?: 'StatsAnswer';
  comparisonFrom?: Maybe<Scalars['String']['output']>;
  comparisonTo?: Maybe<Scalars['String']['output']>;
  dimensions: Array<Scalars['String']['output']>;
  from: Scalars['String']['output'];
  hasMore: Scalars['Boolean']['output'];
  limit: Scalars['Int']['output'];
  /** The query's metrics and dimensions, as asked. */
  metrics: Array<Scalars['String']['output']>;
  offset: Scalars['Int']['output'];
  results: Array<StatsRow>;
  /** Every time bucket of the range, when asked for. */
  timeLabels?: Maybe<Array<Scalars['String']['output']>>;
  to: Scalars['String']['output'];
  /** Rows before paging, when asked for. */
  totalRows?: Maybe<Scalars['Int']['output']>;
};

export type StatsComparison = {
  __typename?: 'StatsComparison';
  /** (now − before) ÷ before; null when before is 0. */
  change: Array<Maybe<Scalars['Float']['output']>>;
  dimensions: Array<Scalars['String']['output']>;
  metrics: Array<Maybe<Scalars['Float']['output']>>;
};

/** A row of an event-level answer: the dimensions' values and the metrics', in the order asked. */
export type StatsRow = {
  __typename?: 'StatsRow';
  /** With a comparison: the row over the other range, and each metric's relative change. */
  comparison?: Maybe<StatsComparison>;
  dimensions: Array<Scalars['String']['output']>;
  metrics: Array<Maybe<Scalars['Float']['output']>>;
};

export type Technology = {
  __typename?: 'Technology';
  browsers: Array<BreakdownRow>;
  devices: Array<BreakdownRow>;
  operatingSystems: Array<BreakdownRow>;
};

export type TimeBucketStats = {
  __typename?: 'TimeBucketStats';
  bounces: Scalars['Int']['output'];
  /** Start of the bucket (ISO 8601, UTC). */
  date: Scalars['String']['output'];
  pageviews: Scalars['Int']['output'];
  sessions: Scalars['Int']['output'];
  visitors: Scalars['Int']['output'];
};

/** A user, owned by the keys subgraph; webhooks adds the user's webhooks. */
export type User = {
  __typename?: 'User';
  /** The user's live access tokens, newest first. Empty unless the caller is this user, with an access token. */
  accessTokens: Array<AccessToken>;
  email: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  memberships: Array<Membership>;
  webhooks: Array<Webhook>;
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

export type Visitor = {
  __typename?: 'Visitor';
  browser?: Maybe<Scalars['String']['output']>;
  country?: Maybe<Scalars['String']['output']>;
  device?: Maybe<Scalars['String']['output']>;
  entryPage?: Maybe<Scalars['String']['output']>;
  firstSeen: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  lastPage?: Maybe<Scalars['String']['output']>;
  lastSeen: Scalars['String']['output'];
  os?: Maybe<Scalars['String']['output']>;
  pageviews: Scalars['Int']['output'];
  sessions: Scalars['Int']['output'];
};

export type VisitorPage = {
  __typename?: 'VisitorPage';
  pagination: Pagination;
  visitors: Array<Visitor>;
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

/** A website, owned by the keys subgraph; analytics adds its traffic figures. */
export type Website = {
  __typename?: 'Website';
  breakdown: Breakdown;
  createdAt: Scalars['String']['output'];
  domain: Scalars['String']['output'];
  errorGroups: ErrorGroupList;
  /** The website's goals, oldest first (at most 100). For whoever may read the website. */
  goals: Array<Goal>;
  heatmapPages: HeatmapPageList;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  organization: Organization;
  overview: AnalyticsOverview;
  replaySessions: ReplaySessionList;
  /** An event-level query over every event of the range (the engine). */
  stats: StatsAnswer;
  technology: Technology;
  /** Page views ever recorded for the website. */
  totalPageviews: Scalars['Int']['output'];
  /** Public identifier embedded by the tracking script. */
  trackingCode: Scalars['String']['output'];
  visitors: VisitorPage;
};


/** A website, owned by the keys subgraph; analytics adds its traffic figures. */
export type WebsiteBreakdownArgs = {
  dimension: BreakdownDimension;
  limit: Scalars['Int']['input'];
  offset: Scalars['Int']['input'];
  range: AnalyticsRange;
};


/** A website, owned by the keys subgraph; analytics adds its traffic figures. */
export type WebsiteErrorGroupsArgs = {
  limit: Scalars['Int']['input'];
  offset: Scalars['Int']['input'];
  range: AnalyticsRange;
};


/** A website, owned by the keys subgraph; analytics adds its traffic figures. */
export type WebsiteHeatmapPagesArgs = {
  limit: Scalars['Int']['input'];
  offset: Scalars['Int']['input'];
  range: AnalyticsRange;
};


/** A website, owned by the keys subgraph; analytics adds its traffic figures. */
export type WebsiteOverviewArgs = {
  range: AnalyticsRange;
};


/** A website, owned by the keys subgraph; analytics adds its traffic figures. */
export type WebsiteReplaySessionsArgs = {
  limit: Scalars['Int']['input'];
  offset: Scalars['Int']['input'];
  range: AnalyticsRange;
};


/** A website, owned by the keys subgraph; analytics adds its traffic figures. */
export type WebsiteStatsArgs = {
  query: Scalars['StatsQuery']['input'];
};


/** A website, owned by the keys subgraph; analytics adds its traffic figures. */
export type WebsiteTechnologyArgs = {
  limit: Scalars['Int']['input'];
  range: AnalyticsRange;
};


/** A website, owned by the keys subgraph; analytics adds its traffic figures. */
export type WebsiteVisitorsArgs = {
  limit: Scalars['Int']['input'];
  offset: Scalars['Int']['input'];
  range: AnalyticsRange;
};

export type WebsiteAccess =
  | 'ALL'
  | 'SELECTED';

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { __typename?: 'Query', me?: { __typename?: 'User', id: string, email: string, memberships: Array<{ __typename?: 'Membership', role: Role, organization: { __typename?: 'Organization', id: string, name: string, plan: Plan } }> } | null };

export type ApiKeysQueryVariables = Exact<{
  organizationId: Scalars['ID']['input'];
}>;


export type ApiKeysQuery = { __typename?: 'Query', organization?: { __typename?: 'Organization', id: string, apiKeys: Array<{ __typename?: 'ApiKey', id: string, name: string, prefix: string, createdAt: string, lastUsedAt?: string | null }> } | null };

export type KeyCallsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  from?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['String']['input']>;
  endpoint?: InputMaybe<Scalars['String']['input']>;
  first: Scalars['Int']['input'];
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type KeyCallsQuery = { __typename?: 'Query', apiKey?: { __typename?: 'ApiKey', id: string, calls: { __typename?: 'ApiCallPage', hasNextPage: boolean, endCursor?: string | null, nodes: Array<{ __typename?: 'ApiCall', id: string, at: string, method: string, endpoint: string, path: string, status: number, ip: string, durationMs: number, requestId?: string | null }> } } | null };

export type CreateKeyWebsitesQueryVariables = Exact<{
  organizationId: Scalars['ID']['input'];
}>;


export type CreateKeyWebsitesQuery = { __typename?: 'Query', organization?: { __typename?: 'Organization', id: string, websites: Array<{ __typename?: 'Website', id: string, name: string, domain: string }> } | null };

export type CreateApiKeyMutationVariables = Exact<{
  input: CreateApiKeyInput;
}>;


export type CreateApiKeyMutation = { __typename?: 'Mutation', createApiKey: { __typename?: 'CreatedApiKey', key: string, apiKey: { __typename?: 'ApiKey', id: string, name: string, prefix: string, createdAt: string, lastUsedAt?: string | null } } };

export type RegenerateApiKeyMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type RegenerateApiKeyMutation = { __typename?: 'Mutation', regenerateApiKey: { __typename?: 'CreatedApiKey', key: string, apiKey: { __typename?: 'ApiKey', id: string, prefix: string, lastUsedAt?: string | null } } };

export type DeleteApiKeyMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type DeleteApiKeyMutation = { __typename?: 'Mutation', deleteApiKey: boolean };

export type KeyDetailsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type KeyDetailsQuery = { __typename?: 'Query', apiKey?: { __typename?: 'ApiKey', id: string, name: string, description?: string | null, prefix: string, permissions: Array<Permission>, websiteAccess: WebsiteAccess, expiresAt?: string | null, createdAt: string, lastUsedAt?: string | null, websites: Array<{ __typename?: 'Website', id: string, name: string }> } | null };

export type KeyUsageQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type KeyUsageQuery = { __typename?: 'Query', apiKey?: { __typename?: 'ApiKey', id: string, usage: { __typename?: 'ApiKeyUsage', totalRequests: number, recentActivity: Array<{ __typename?: 'DailyRequests', date: string, requests: number }> } } | null };

export type OrganizationUsageQueryVariables = Exact<{
  organizationId: Scalars['ID']['input'];
}>;


export type OrganizationUsageQuery = { __typename?: 'Query', organization?: { __typename?: 'Organization', id: string, name: string, plan: Plan, limits: { __typename?: 'Limits', requestsPerMinute: number, requestsPerMonth: number }, usage: { __typename?: 'OrganizationUsage', month: string, requests: number, resetsAt: string, daily: Array<{ __typename?: 'DailyRequests', date: string, requests: number }> } } | null };

export type WebhookEventTypesQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookEventTypesQuery = { __typename?: 'Query', webhookEventTypes: Array<string> };

export type CreateWebhookMutationVariables = Exact<{
  input: CreateWebhookInput;
}>;


export type CreateWebhookMutation = { __typename?: 'Mutation', createWebhook: { __typename?: 'WebhookWithSecret', secret: string, webhook: { __typename?: 'Webhook', id: string, url: string, description?: string | null, eventTypes: Array<string>, status: WebhookStatus, createdAt: string } } };

export type RotateWebhookSecretMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type RotateWebhookSecretMutation = { __typename?: 'Mutation', rotateWebhookSecret: { __typename?: 'WebhookWithSecret', secret: string, webhook: { __typename?: 'Webhook', id: string, secretRotatedAt?: string | null } } };

export type DeleteWebhookMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type DeleteWebhookMutation = { __typename?: 'Mutation', deleteWebhook: { __typename?: 'Webhook', id: string, status: WebhookStatus } };

export type AlertWebsitesQueryVariables = Exact<{
  organizationId: Scalars['ID']['input'];
}>;


export type AlertWebsitesQuery = { __typename?: 'Query', organization?: { __typename?: 'Organization', id: string, websites: Array<{ __typename?: 'Website', id: string, name: string }> } | null };

export type WebhookAlertFieldsFragment = { __typename?: 'WebhookAlerts', websiteIds?: Array<string> | null, spikeRatio: number, dropRatio: number, reportHour: number, goalEvery?: number | null };

export type SetWebhookAlertsSettingsMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  input: WebhookAlertsInput;
}>;


export type SetWebhookAlertsSettingsMutation = { __typename?: 'Mutation', setWebhookAlerts: { __typename?: 'Webhook', id: string, alerts: { __typename?: 'WebhookAlerts', websiteIds?: Array<string> | null, spikeRatio: number, dropRatio: number, reportHour: number, goalEvery?: number | null } } };

export type WebhookDetailsQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookDetailsQuery = { __typename?: 'Query', myWebhooks: Array<{ __typename?: 'Webhook', id: string, url: string, description?: string | null, eventTypes: Array<string>, status: WebhookStatus, disabledReason?: string | null, createdAt: string, secretRotatedAt?: string | null, alerts: { __typename?: 'WebhookAlerts', websiteIds?: Array<string> | null, spikeRatio: number, dropRatio: number, reportHour: number, goalEvery?: number | null }, deliveries: Array<{ __typename?: 'WebhookDelivery', id: string, eventId: string, eventType: string, status: WebhookDeliveryStatus, test: boolean, createdAt: string, nextAttemptAt?: string | null, attempts: Array<{ __typename?: 'WebhookDeliveryAttempt', attempt: number, at: string, statusCode?: number | null, durationMs: number, error?: string | null }> }> }> };

export type RedeliverDeliveryMutationVariables = Exact<{
  webhookId: Scalars['ID']['input'];
  deliveryId: Scalars['ID']['input'];
}>;


export type RedeliverDeliveryMutation = { __typename?: 'Mutation', redeliverWebhookDelivery: { __typename?: 'WebhookTestResult', deliveryId: string, success: boolean, statusCode?: number | null, error?: string | null } };

export type TestWebhookMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type TestWebhookMutation = { __typename?: 'Mutation', testWebhook: { __typename?: 'WebhookTestResult', deliveryId: string, eventId: string, success: boolean, statusCode?: number | null, responseBody: string, responseBodyTruncated: boolean, durationMs: number, error?: string | null } };

export type WebhooksQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhooksQuery = { __typename?: 'Query', myWebhooks: Array<{ __typename?: 'Webhook', id: string, url: string, description?: string | null, eventTypes: Array<string>, status: WebhookStatus, createdAt: string }> };

export type CreateGoalMutationVariables = Exact<{
  input: CreateGoalInput;
}>;


export type CreateGoalMutation = { __typename?: 'Mutation', createGoal: { __typename?: 'Goal', id: string, name: string, kind: GoalKind, pagePath?: string | null, eventName?: string | null, currency?: string | null, createdAt: string } };

export type WebsiteAnalyticsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  range: AnalyticsRange;
}>;


export type WebsiteAnalyticsQuery = { __typename?: 'Query', website?: { __typename?: 'Website', id: string, overview: { __typename?: 'AnalyticsOverview', summary: { __typename?: 'AnalyticsSummary', totalVisitors: number, uniqueVisitors: number, pageviews: number, sessions: number, bounceRate: number, avgVisitDuration: number }, series: Array<{ __typename?: 'TimeBucketStats', date: string, visitors: number, pageviews: number }> }, topPages: { __typename?: 'Breakdown', rows: Array<{ __typename?: 'BreakdownRow', value: string, visitors: number, pageviews: number }> }, topCountries: { __typename?: 'Breakdown', rows: Array<{ __typename?: 'BreakdownRow', value: string, visitors: number, pageviews: number }> } } | null };

export type WebsiteQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type WebsiteQuery = { __typename?: 'Query', website?: { __typename?: 'Website', id: string, name: string, domain: string, trackingCode: string, organization: { __typename?: 'Organization', id: string } } | null };

export type WebsiteExploreQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  query: Scalars['StatsQuery']['input'];
}>;


export type WebsiteExploreQuery = { __typename?: 'Query', website?: { __typename?: 'Website', id: string, stats: { __typename?: 'StatsAnswer', totalRows?: number | null, results: Array<{ __typename?: 'StatsRow', dimensions: Array<string>, metrics: Array<number | null> }> } } | null };

export type WebsiteGoalsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type WebsiteGoalsQuery = { __typename?: 'Query', website?: { __typename?: 'Website', id: string, goals: Array<{ __typename?: 'Goal', id: string, name: string, kind: GoalKind, pagePath?: string | null, eventName?: string | null, currency?: string | null, createdAt: string }> } | null };

export type DeleteGoalMutationVariables = Exact<{
  websiteId: Scalars['ID']['input'];
  id: Scalars['ID']['input'];
}>;


export type DeleteGoalMutation = { __typename?: 'Mutation', deleteGoal: boolean };

export type WebsitesQueryVariables = Exact<{
  organizationId: Scalars['ID']['input'];
}>;


export type WebsitesQuery = { __typename?: 'Query', organization?: { __typename?: 'Organization', id: string, websites: Array<{ __typename?: 'Website', id: string, name: string, domain: string, trackingCode: string, createdAt: string }> } | null };

export const WebhookAlertFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookAlertFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookAlerts"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"websiteIds"}},{"kind":"Field","name":{"kind":"Name","value":"spikeRatio"}},{"kind":"Field","name":{"kind":"Name","value":"dropRatio"}},{"kind":"Field","name":{"kind":"Name","value":"reportHour"}},{"kind":"Field","name":{"kind":"Name","value":"goalEvery"}}]}}]} as unknown as DocumentNode<WebhookAlertFieldsFragment, unknown>;
export const MeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"memberships"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"plan"}}]}}]}}]}}]}}]} as unknown as DocumentNode<MeQuery, MeQueryVariables>;
export const ApiKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ApiKeys"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}}]}}]}}]}}]} as unknown as DocumentNode<ApiKeysQuery, ApiKeysQueryVariables>;
export const KeyCallsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"KeyCalls"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpoint"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"calls"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"endpoint"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpoint"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"endpoint"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"ip"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<KeyCallsQuery, KeyCallsQueryVariables>;
export const CreateKeyWebsitesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CreateKeyWebsites"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"websites"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}}]}}]}}]}}]} as unknown as DocumentNode<CreateKeyWebsitesQuery, CreateKeyWebsitesQueryVariables>;
export const CreateApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateApiKeyInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}}]}}]}}]}}]} as unknown as DocumentNode<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RegenerateApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RegenerateApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"regenerateApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}}]}}]}}]}}]} as unknown as DocumentNode<RegenerateApiKeyMutation, RegenerateApiKeyMutationVariables>;
export const DeleteApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<DeleteApiKeyMutation, DeleteApiKeyMutationVariables>;
export const KeyDetailsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"KeyDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"permissions"}},{"kind":"Field","name":{"kind":"Name","value":"websiteAccess"}},{"kind":"Field","name":{"kind":"Name","value":"websites"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}}]}}]}}]} as unknown as DocumentNode<KeyDetailsQuery, KeyDetailsQueryVariables>;
export const KeyUsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"KeyUsage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalRequests"}},{"kind":"Field","name":{"kind":"Name","value":"recentActivity"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"requests"}}]}}]}}]}}]}}]} as unknown as DocumentNode<KeyUsageQuery, KeyUsageQueryVariables>;
export const OrganizationUsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrganizationUsage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"plan"}},{"kind":"Field","name":{"kind":"Name","value":"limits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requestsPerMinute"}},{"kind":"Field","name":{"kind":"Name","value":"requestsPerMonth"}}]}},{"kind":"Field","name":{"kind":"Name","value":"usage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"month"}},{"kind":"Field","name":{"kind":"Name","value":"requests"}},{"kind":"Field","name":{"kind":"Name","value":"resetsAt"}},{"kind":"Field","name":{"kind":"Name","value":"daily"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"requests"}}]}}]}}]}}]}}]} as unknown as DocumentNode<OrganizationUsageQuery, OrganizationUsageQueryVariables>;
export const WebhookEventTypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEventTypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEventTypes"}}]}}]} as unknown as DocumentNode<WebhookEventTypesQuery, WebhookEventTypesQueryVariables>;
export const CreateWebhookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateWebhookInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"webhook"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"eventTypes"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<CreateWebhookMutation, CreateWebhookMutationVariables>;
export const RotateWebhookSecretDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RotateWebhookSecret"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rotateWebhookSecret"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"webhook"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"secretRotatedAt"}}]}}]}}]}}]} as unknown as DocumentNode<RotateWebhookSecretMutation, RotateWebhookSecretMutationVariables>;
export const DeleteWebhookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<DeleteWebhookMutation, DeleteWebhookMutationVariables>;
export const AlertWebsitesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AlertWebsites"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"websites"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<AlertWebsitesQuery, AlertWebsitesQueryVariables>;
export const SetWebhookAlertsSettingsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetWebhookAlertsSettings"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookAlertsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setWebhookAlerts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"alerts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookAlertFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookAlertFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookAlerts"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"websiteIds"}},{"kind":"Field","name":{"kind":"Name","value":"spikeRatio"}},{"kind":"Field","name":{"kind":"Name","value":"dropRatio"}},{"kind":"Field","name":{"kind":"Name","value":"reportHour"}},{"kind":"Field","name":{"kind":"Name","value":"goalEvery"}}]}}]} as unknown as DocumentNode<SetWebhookAlertsSettingsMutation, SetWebhookAlertsSettingsMutationVariables>;
export const WebhookDetailsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookDetails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"myWebhooks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"eventTypes"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"secretRotatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"alerts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookAlertFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"deliveries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"test"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"statusCode"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookAlertFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookAlerts"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"websiteIds"}},{"kind":"Field","name":{"kind":"Name","value":"spikeRatio"}},{"kind":"Field","name":{"kind":"Name","value":"dropRatio"}},{"kind":"Field","name":{"kind":"Name","value":"reportHour"}},{"kind":"Field","name":{"kind":"Name","value":"goalEvery"}}]}}]} as unknown as DocumentNode<WebhookDetailsQuery, WebhookDetailsQueryVariables>;
export const RedeliverDeliveryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RedeliverDelivery"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"webhookId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deliveryId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"redeliverWebhookDelivery"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"webhookId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"webhookId"}}},{"kind":"Argument","name":{"kind":"Name","value":"deliveryId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deliveryId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deliveryId"}},{"kind":"Field","name":{"kind":"Name","value":"success"}},{"kind":"Field","name":{"kind":"Name","value":"statusCode"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]} as unknown as DocumentNode<RedeliverDeliveryMutation, RedeliverDeliveryMutationVariables>;
export const TestWebhookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TestWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"testWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deliveryId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"success"}},{"kind":"Field","name":{"kind":"Name","value":"statusCode"}},{"kind":"Field","name":{"kind":"Name","value":"responseBody"}},{"kind":"Field","name":{"kind":"Name","value":"responseBodyTruncated"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]} as unknown as DocumentNode<TestWebhookMutation, TestWebhookMutationVariables>;
export const WebhooksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Webhooks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"myWebhooks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"eventTypes"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<WebhooksQuery, WebhooksQueryVariables>;
export const CreateGoalDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateGoal"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateGoalInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createGoal"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"pagePath"}},{"kind":"Field","name":{"kind":"Name","value":"eventName"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<CreateGoalMutation, CreateGoalMutationVariables>;
export const WebsiteAnalyticsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebsiteAnalytics"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"range"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AnalyticsRange"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"website"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"overview"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"range"},"value":{"kind":"Variable","name":{"kind":"Name","value":"range"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalVisitors"}},{"kind":"Field","name":{"kind":"Name","value":"uniqueVisitors"}},{"kind":"Field","name":{"kind":"Name","value":"pageviews"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}},{"kind":"Field","name":{"kind":"Name","value":"bounceRate"}},{"kind":"Field","name":{"kind":"Name","value":"avgVisitDuration"}}]}},{"kind":"Field","name":{"kind":"Name","value":"series"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"visitors"}},{"kind":"Field","name":{"kind":"Name","value":"pageviews"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"topPages"},"name":{"kind":"Name","value":"breakdown"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dimension"},"value":{"kind":"EnumValue","value":"PAGE"}},{"kind":"Argument","name":{"kind":"Name","value":"range"},"value":{"kind":"Variable","name":{"kind":"Name","value":"range"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"10"}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"IntValue","value":"0"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"visitors"}},{"kind":"Field","name":{"kind":"Name","value":"pageviews"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"topCountries"},"name":{"kind":"Name","value":"breakdown"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"dimension"},"value":{"kind":"EnumValue","value":"COUNTRY"}},{"kind":"Argument","name":{"kind":"Name","value":"range"},"value":{"kind":"Variable","name":{"kind":"Name","value":"range"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"10"}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"IntValue","value":"0"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"visitors"}},{"kind":"Field","name":{"kind":"Name","value":"pageviews"}}]}}]}}]}}]}}]} as unknown as DocumentNode<WebsiteAnalyticsQuery, WebsiteAnalyticsQueryVariables>;
export const WebsiteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Website"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"website"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"trackingCode"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<WebsiteQuery, WebsiteQueryVariables>;
export const WebsiteExploreDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebsiteExplore"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"StatsQuery"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"website"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"stats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalRows"}},{"kind":"Field","name":{"kind":"Name","value":"results"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dimensions"}},{"kind":"Field","name":{"kind":"Name","value":"metrics"}}]}}]}}]}}]}}]} as unknown as DocumentNode<WebsiteExploreQuery, WebsiteExploreQueryVariables>;
export const WebsiteGoalsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebsiteGoals"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"website"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"goals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"pagePath"}},{"kind":"Field","name":{"kind":"Name","value":"eventName"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<WebsiteGoalsQuery, WebsiteGoalsQueryVariables>;
export const DeleteGoalDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteGoal"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"websiteId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteGoal"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"websiteId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"websiteId"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<DeleteGoalMutation, DeleteGoalMutationVariables>;
export const WebsitesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Websites"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"websites"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"domain"}},{"kind":"Field","name":{"kind":"Name","value":"trackingCode"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<WebsitesQuery, WebsitesQueryVariables>;