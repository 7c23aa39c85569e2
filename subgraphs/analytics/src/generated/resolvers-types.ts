import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { WebsiteRef } from '../resolvers/parents';
import type { AnalyticsContext } from '../context';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
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
  HeatmapCells: { input: Array<[number, number, number]>; output: Array<[number, number, number]>; }
  /**
   * An event-level query (POST /query/:websiteId, docs/analytics.md): the normalized form of
   * common/contracts/stats-query.ts, as JSON. Input only.
   */
  StatsQuery: { input: unknown; output: unknown; }
  _FieldSet: { input: any; output: any; }
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
  currency?: Maybe<Scalars['String']['output']>;
  eventName?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  kind: GoalKind;
  name: Scalars['String']['output'];
  pagePath?: Maybe<Scalars['String']['output']>;
};

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

export type Pagination = {
  __typename?: 'Pagination';
  hasMore: Scalars['Boolean']['output'];
  limit: Scalars['Int']['output'];
  offset: Scalars['Int']['output'];
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

/** A website, owned by the keys subgraph; analytics adds its traffic figures. */
export type Website = {
  __typename?: 'Website';
  breakdown: Breakdown;
  errorGroups: ErrorGroupList;
  /** The keys subgraph's goals of the website (what the goal dimension and conversion rates count). */
  goals: Array<Goal>;
  heatmapPages: HeatmapPageList;
  id: Scalars['ID']['output'];
  overview: AnalyticsOverview;
  /** The keys subgraph's verdict on the caller's access; every figure below requires it. */
  readableByCaller: Scalars['Boolean']['output'];
  replaySessions: ReplaySessionList;
  /** An event-level query over every event of the range (the engine). */
  stats: StatsAnswer;
  technology: Technology;
  /** Page views ever recorded for the website. */
  totalPageviews: Scalars['Int']['output'];
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
  AnalyticsOverview: ResolverTypeWrapper<AnalyticsOverview>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  AnalyticsRange: AnalyticsRange;
  AnalyticsSummary: ResolverTypeWrapper<AnalyticsSummary>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  Breakdown: ResolverTypeWrapper<Breakdown>;
  BreakdownDimension: BreakdownDimension;
  BreakdownRow: ResolverTypeWrapper<BreakdownRow>;
  ErrorGroup: ResolverTypeWrapper<ErrorGroup>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  ErrorGroupList: ResolverTypeWrapper<ErrorGroupList>;
  Goal: ResolverTypeWrapper<Goal>;
  GoalKind: GoalKind;
  HeatmapCells: ResolverTypeWrapper<Scalars['HeatmapCells']['output']>;
  HeatmapPage: ResolverTypeWrapper<HeatmapPage>;
  HeatmapPageList: ResolverTypeWrapper<HeatmapPageList>;
  Pagination: ResolverTypeWrapper<Pagination>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  ReplaySession: ResolverTypeWrapper<ReplaySession>;
  ReplaySessionList: ResolverTypeWrapper<ReplaySessionList>;
  StatsAnswer: ResolverTypeWrapper<StatsAnswer>;
  StatsComparison: ResolverTypeWrapper<StatsComparison>;
  StatsQuery: ResolverTypeWrapper<Scalars['StatsQuery']['output']>;
  StatsRow: ResolverTypeWrapper<StatsRow>;
  Technology: ResolverTypeWrapper<Technology>;
  TimeBucketStats: ResolverTypeWrapper<TimeBucketStats>;
  Visitor: ResolverTypeWrapper<Visitor>;
  VisitorPage: ResolverTypeWrapper<VisitorPage>;
  Website: ResolverTypeWrapper<WebsiteRef>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AnalyticsOverview: AnalyticsOverview;
  String: Scalars['String']['output'];
  AnalyticsSummary: AnalyticsSummary;
  Float: Scalars['Float']['output'];
  Int: Scalars['Int']['output'];
  Breakdown: Breakdown;
  BreakdownRow: BreakdownRow;
  ErrorGroup: ErrorGroup;
  ID: Scalars['ID']['output'];
  ErrorGroupList: ErrorGroupList;
  Goal: Goal;
  HeatmapCells: Scalars['HeatmapCells']['output'];
  HeatmapPage: HeatmapPage;
  HeatmapPageList: HeatmapPageList;
  Pagination: Pagination;
  Boolean: Scalars['Boolean']['output'];
  ReplaySession: ReplaySession;
  ReplaySessionList: ReplaySessionList;
  StatsAnswer: StatsAnswer;
  StatsComparison: StatsComparison;
  StatsQuery: Scalars['StatsQuery']['output'];
  StatsRow: StatsRow;
  Technology: Technology;
  TimeBucketStats: TimeBucketStats;
  Visitor: Visitor;
  VisitorPage: VisitorPage;
  Website: WebsiteRef;
};

export type AnalyticsOverviewResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['AnalyticsOverview'] = ResolversParentTypes['AnalyticsOverview']> = {
  from?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  granularity?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  range?: Resolver<ResolversTypes['AnalyticsRange'], ParentType, ContextType>;
  series?: Resolver<Array<ResolversTypes['TimeBucketStats']>, ParentType, ContextType>;
  summary?: Resolver<ResolversTypes['AnalyticsSummary'], ParentType, ContextType>;
  to?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type AnalyticsSummaryResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['AnalyticsSummary'] = ResolversParentTypes['AnalyticsSummary']> = {
  avgVisitDuration?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  bounceRate?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  pageviews?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sessions?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalVisitors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  uniqueVisitors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type BreakdownResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['Breakdown'] = ResolversParentTypes['Breakdown']> = {
  dimension?: Resolver<ResolversTypes['BreakdownDimension'], ParentType, ContextType>;
  pagination?: Resolver<ResolversTypes['Pagination'], ParentType, ContextType>;
  rows?: Resolver<Array<ResolversTypes['BreakdownRow']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type BreakdownRowResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['BreakdownRow'] = ResolversParentTypes['BreakdownRow']> = {
  avgVisitDuration?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  bounceRate?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  events?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  pageviews?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sessions?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  value?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  visitors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ErrorGroupResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['ErrorGroup'] = ResolversParentTypes['ErrorGroup']> = {
  affectedVisitors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  fingerprint?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  firstSeen?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lastPage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  lastSeen?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  occurrences?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  stack?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  totalOccurrences?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ErrorGroupListResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['ErrorGroupList'] = ResolversParentTypes['ErrorGroupList']> = {
  groups?: Resolver<Array<ResolversTypes['ErrorGroup']>, ParentType, ContextType>;
  pagination?: Resolver<ResolversTypes['Pagination'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type GoalResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['Goal'] = ResolversParentTypes['Goal']> = {
  currency?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  eventName?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['GoalKind'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  pagePath?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export interface HeatmapCellsScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['HeatmapCells'], any> {
  name: 'HeatmapCells';
}

export type HeatmapPageResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['HeatmapPage'] = ResolversParentTypes['HeatmapPage']> = {
  cells?: Resolver<ResolversTypes['HeatmapCells'], ParentType, ContextType>;
  clicks?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  path?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  visitors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type HeatmapPageListResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['HeatmapPageList'] = ResolversParentTypes['HeatmapPageList']> = {
  pages?: Resolver<Array<ResolversTypes['HeatmapPage']>, ParentType, ContextType>;
  pagination?: Resolver<ResolversTypes['Pagination'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type PaginationResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['Pagination'] = ResolversParentTypes['Pagination']> = {
  hasMore?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  limit?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  offset?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ReplaySessionResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['ReplaySession'] = ResolversParentTypes['ReplaySession']> = {
  browser?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  bytes?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  chunks?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  country?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  device?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  entryPage?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lastActivity?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  os?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  startedAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  visitorId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ReplaySessionListResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['ReplaySessionList'] = ResolversParentTypes['ReplaySessionList']> = {
  pagination?: Resolver<ResolversTypes['Pagination'], ParentType, ContextType>;
  sessions?: Resolver<Array<ResolversTypes['ReplaySession']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type StatsAnswerResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['StatsAnswer'] = ResolversParentTypes['StatsAnswer']> = {
  comparisonFrom?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  comparisonTo?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  dimensions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  from?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  hasMore?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  limit?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  metrics?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  offset?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  results?: Resolver<Array<ResolversTypes['StatsRow']>, ParentType, ContextType>;
  timeLabels?: Resolver<Maybe<Array<ResolversTypes['String']>>, ParentType, ContextType>;
  to?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  totalRows?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type StatsComparisonResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['StatsComparison'] = ResolversParentTypes['StatsComparison']> = {
  change?: Resolver<Array<Maybe<ResolversTypes['Float']>>, ParentType, ContextType>;
  dimensions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  metrics?: Resolver<Array<Maybe<ResolversTypes['Float']>>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export interface StatsQueryScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['StatsQuery'], any> {
  name: 'StatsQuery';
}

export type StatsRowResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['StatsRow'] = ResolversParentTypes['StatsRow']> = {
  comparison?: Resolver<Maybe<ResolversTypes['StatsComparison']>, ParentType, ContextType>;
  dimensions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  metrics?: Resolver<Array<Maybe<ResolversTypes['Float']>>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type TechnologyResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['Technology'] = ResolversParentTypes['Technology']> = {
  browsers?: Resolver<Array<ResolversTypes['BreakdownRow']>, ParentType, ContextType>;
  devices?: Resolver<Array<ResolversTypes['BreakdownRow']>, ParentType, ContextType>;
  operatingSystems?: Resolver<Array<ResolversTypes['BreakdownRow']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type TimeBucketStatsResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['TimeBucketStats'] = ResolversParentTypes['TimeBucketStats']> = {
  bounces?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  date?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  pageviews?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sessions?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  visitors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type VisitorResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['Visitor'] = ResolversParentTypes['Visitor']> = {
  browser?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  country?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  device?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  entryPage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  firstSeen?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lastPage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  lastSeen?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  os?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  pageviews?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sessions?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type VisitorPageResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['VisitorPage'] = ResolversParentTypes['VisitorPage']> = {
  pagination?: Resolver<ResolversTypes['Pagination'], ParentType, ContextType>;
  visitors?: Resolver<Array<ResolversTypes['Visitor']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type WebsiteResolvers<ContextType = AnalyticsContext, ParentType extends ResolversParentTypes['Website'] = ResolversParentTypes['Website']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Website']>, { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}>, ContextType>;
  breakdown?: Resolver<ResolversTypes['Breakdown'], { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}> & GraphQLRecursivePick<ParentType, {"readableByCaller":true}>, ContextType, RequireFields<WebsiteBreakdownArgs, 'dimension' | 'limit' | 'offset' | 'range'>>;
  errorGroups?: Resolver<ResolversTypes['ErrorGroupList'], { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}> & GraphQLRecursivePick<ParentType, {"readableByCaller":true}>, ContextType, RequireFields<WebsiteErrorGroupsArgs, 'limit' | 'offset' | 'range'>>;

  heatmapPages?: Resolver<ResolversTypes['HeatmapPageList'], { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}> & GraphQLRecursivePick<ParentType, {"readableByCaller":true}>, ContextType, RequireFields<WebsiteHeatmapPagesArgs, 'limit' | 'offset' | 'range'>>;
  id?: Resolver<ResolversTypes['ID'], { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}>, ContextType>;
  overview?: Resolver<ResolversTypes['AnalyticsOverview'], { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}> & GraphQLRecursivePick<ParentType, {"readableByCaller":true}>, ContextType, RequireFields<WebsiteOverviewArgs, 'range'>>;

  replaySessions?: Resolver<ResolversTypes['ReplaySessionList'], { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}> & GraphQLRecursivePick<ParentType, {"readableByCaller":true}>, ContextType, RequireFields<WebsiteReplaySessionsArgs, 'limit' | 'offset' | 'range'>>;
  stats?: Resolver<ResolversTypes['StatsAnswer'], { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}> & GraphQLRecursivePick<ParentType, {"readableByCaller":true,"goals":{"id":true,"name":true,"kind":true,"pagePath":true,"eventName":true,"currency":true}}>, ContextType, RequireFields<WebsiteStatsArgs, 'query'>>;
  technology?: Resolver<ResolversTypes['Technology'], { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}> & GraphQLRecursivePick<ParentType, {"readableByCaller":true}>, ContextType, RequireFields<WebsiteTechnologyArgs, 'limit' | 'range'>>;
  totalPageviews?: Resolver<ResolversTypes['Int'], { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}> & GraphQLRecursivePick<ParentType, {"readableByCaller":true}>, ContextType>;
  visitors?: Resolver<ResolversTypes['VisitorPage'], { __typename: 'Website' } & GraphQLRecursivePick<ParentType, {"id":true}> & GraphQLRecursivePick<ParentType, {"readableByCaller":true}>, ContextType, RequireFields<WebsiteVisitorsArgs, 'limit' | 'offset' | 'range'>>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type Resolvers<ContextType = AnalyticsContext> = {
  AnalyticsOverview?: AnalyticsOverviewResolvers<ContextType>;
  AnalyticsSummary?: AnalyticsSummaryResolvers<ContextType>;
  Breakdown?: BreakdownResolvers<ContextType>;
  BreakdownRow?: BreakdownRowResolvers<ContextType>;
  ErrorGroup?: ErrorGroupResolvers<ContextType>;
  ErrorGroupList?: ErrorGroupListResolvers<ContextType>;
  Goal?: GoalResolvers<ContextType>;
  HeatmapCells?: GraphQLScalarType;
  HeatmapPage?: HeatmapPageResolvers<ContextType>;
  HeatmapPageList?: HeatmapPageListResolvers<ContextType>;
  Pagination?: PaginationResolvers<ContextType>;
  ReplaySession?: ReplaySessionResolvers<ContextType>;
  ReplaySessionList?: ReplaySessionListResolvers<ContextType>;
  StatsAnswer?: StatsAnswerResolvers<ContextType>;
  StatsComparison?: StatsComparisonResolvers<ContextType>;
  StatsQuery?: GraphQLScalarType;
  StatsRow?: StatsRowResolvers<ContextType>;
  Technology?: TechnologyResolvers<ContextType>;
  TimeBucketStats?: TimeBucketStatsResolvers<ContextType>;
  Visitor?: VisitorResolvers<ContextType>;
  VisitorPage?: VisitorPageResolvers<ContextType>;
  Website?: WebsiteResolvers<ContextType>;
};

