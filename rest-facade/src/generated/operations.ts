import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = {
  [_ in K]?: never;
};
export type Incremental<T> =
  T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string };
  String: { input: string; output: string };
  Boolean: { input: boolean; output: boolean };
  Int: { input: number; output: number };
  Float: { input: number; output: number };
  /**
   * The busiest cells of a heatmap page, most clicked first (at most 100), each as [x, y, clicks]: x
   * in whole percent of the viewport width (0 to 99), y the 50px band of the document from the top
   * (400 collects every click below 20,000 px). Triples rather than objects: a list of a hundred
   * heatmap pages holds ten thousand cells.
   */
  HeatmapCells: { input: Array<[number, number, number]>; output: Array<[number, number, number]> };
  /**
   * An event-level query (POST /query/:websiteId, docs/analytics.md): the normalized form of
   * common/contracts/stats-query.ts, as JSON. Input only.
   */
  StatsQuery: { input: unknown; output: unknown };
};

/** Time window ending now. 24 hours are read in hour buckets; the others in UTC day buckets. */
export type AnalyticsRange =
  'LAST_7_DAYS' | 'LAST_24_HOURS' | 'LAST_30_DAYS' | 'LAST_90_DAYS' | 'LAST_YEAR';

export type BreakdownDimension =
  'BROWSER' | 'COUNTRY' | 'DEVICE' | 'EVENT' | 'OS' | 'PAGE' | 'SOURCE';

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

/** What a goal counts as a conversion: a page view whose path matches a pattern, or a custom event. */
export type GoalKind = 'EVENT' | 'PAGE';

export type KeyExpiration = 'CUSTOM' | 'NEVER' | 'NINETY_DAYS' | 'ONE_YEAR';

export type Permission =
  'ADMIN' | 'MANAGE_TEAM' | 'MANAGE_WEBSITES' | 'READ_ANALYTICS' | 'TRACK_EVENTS';

/** Subscription tier of an organization (team). FREE cannot use the External API. */
export type Plan = 'ENTERPRISE' | 'FREE' | 'PRO' | 'SCALE';

export type Role = 'ADMIN' | 'MEMBER' | 'OWNER';

/** Alert settings to change; an omitted field keeps its value (websiteIds: null means every website). */
export type WebhookAlertsInput = {
  dropRatio?: InputMaybe<Scalars['Float']['input']>;
  /** null: the day's first conversion only. */
  goalEvery?: InputMaybe<Scalars['Int']['input']>;
  reportHour?: InputMaybe<Scalars['Int']['input']>;
  spikeRatio?: InputMaybe<Scalars['Float']['input']>;
  websiteIds?: InputMaybe<Array<Scalars['ID']['input']>>;
};

export type WebhookDeliveryStatus = 'CANCELLED' | 'FAILED' | 'PENDING' | 'SUCCEEDED';

export type WebhookStatus =
  | 'ACTIVE'
  /** The receiver answered 410 Gone; nothing more is delivered. */
  | 'DISABLED'
  | 'REVOKED';

export type WebsiteAccess = 'ALL' | 'SELECTED';

export type AnalyticsBreakdownQueryVariables = Exact<{
  websiteId: Scalars['ID']['input'];
  dimension: BreakdownDimension;
  range: AnalyticsRange;
  limit: Scalars['Int']['input'];
  offset: Scalars['Int']['input'];
}>;

export type AnalyticsBreakdownQuery = {
  website: {
    id: string;
    breakdown: {
      dimension: BreakdownDimension;
      rows: Array<{
        bounceRate: number;
        avgVisitDuration: number;
        value: string;
        visitors: number;
        pageviews: number;
        sessions: number;
      }>;
      pagination: { limit: number; offset: number; hasMore: boolean };
    };
  } | null;
};

export type AnalyticsOverviewQueryVariables = Exact<{
  websiteId: Scalars['ID']['input'];
  range: AnalyticsRange;
}>;

export type AnalyticsOverviewQuery = {
  website: {
    id: string;
    overview: {
      range: AnalyticsRange;
      granularity: string;
      from: string;
      to: string;
      summary: {
        totalVisitors: number;
        pageviews: number;
        uniqueVisitors: number;
        sessions: number;
        bounceRate: number;
        avgVisitDuration: number;
      };
      series: Array<{
        date: string;
        pageviews: number;
        visitors: number;
        sessions: number;
        bounces: number;
      }>;
    };
  } | null;
};

export type AnalyticsStatsQueryVariables = Exact<{
  websiteId: Scalars['ID']['input'];
  query: Scalars['StatsQuery']['input'];
}>;

export type AnalyticsStatsQuery = {
  website: {
    id: string;
    stats: {
      metrics: Array<string>;
      dimensions: Array<string>;
      limit: number;
      offset: number;
      totalRows: number | null;
      timeLabels: Array<string> | null;
      from: string;
      to: string;
      comparisonFrom: string | null;
      comparisonTo: string | null;
      hasMore: boolean;
      results: Array<{
        dimensions: Array<string>;
        metrics: Array<number | null>;
        comparison: {
          dimensions: Array<string>;
          metrics: Array<number | null>;
          change: Array<number | null>;
        } | null;
      }>;
    };
  } | null;
};

export type AnalyticsTechnologyQueryVariables = Exact<{
  websiteId: Scalars['ID']['input'];
  range: AnalyticsRange;
  limit: Scalars['Int']['input'];
}>;

export type AnalyticsTechnologyQuery = {
  website: {
    id: string;
    technology: {
      devices: Array<{ value: string; visitors: number; pageviews: number; sessions: number }>;
      browsers: Array<{ value: string; visitors: number; pageviews: number; sessions: number }>;
      operatingSystems: Array<{
        value: string;
        visitors: number;
        pageviews: number;
        sessions: number;
      }>;
    };
  } | null;
};

export type AnalyticsVisitorsQueryVariables = Exact<{
  websiteId: Scalars['ID']['input'];
  range: AnalyticsRange;
  limit: Scalars['Int']['input'];
  offset: Scalars['Int']['input'];
}>;

export type AnalyticsVisitorsQuery = {
  website: {
    id: string;
    visitors: {
      visitors: Array<{
        id: string;
        country: string | null;
        device: string | null;
        browser: string | null;
        os: string | null;
        firstSeen: string;
        lastSeen: string;
        pageviews: number;
        sessions: number;
        entryPage: string | null;
        lastPage: string | null;
      }>;
      pagination: { limit: number; offset: number; hasMore: boolean };
    };
  } | null;
};

export type CreateWebhookMutationVariables = Exact<{
  input: CreateWebhookInput;
}>;

export type CreateWebhookMutation = {
  createWebhook: {
    secret: string;
    webhook: {
      id: string;
      url: string;
      description: string | null;
      eventTypes: Array<string>;
      status: WebhookStatus;
      disabledReason: string | null;
      createdAt: string;
      secretRotatedAt: string | null;
      alerts: {
        websiteIds: Array<string> | null;
        spikeRatio: number;
        dropRatio: number;
        reportHour: number;
        goalEvery: number | null;
      };
    };
  };
};

export type DeleteWebhookMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;

export type DeleteWebhookMutation = { deleteWebhook: { id: string; status: WebhookStatus } };

export type EnableWebhookMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;

export type EnableWebhookMutation = {
  enableWebhook: {
    id: string;
    url: string;
    description: string | null;
    eventTypes: Array<string>;
    status: WebhookStatus;
    disabledReason: string | null;
    createdAt: string;
    secretRotatedAt: string | null;
    alerts: {
      websiteIds: Array<string> | null;
      spikeRatio: number;
      dropRatio: number;
      reportHour: number;
      goalEvery: number | null;
    };
  };
};

export type ErrorGroupsQueryVariables = Exact<{
  websiteId: Scalars['ID']['input'];
  range: AnalyticsRange;
  limit: Scalars['Int']['input'];
  offset: Scalars['Int']['input'];
}>;

export type ErrorGroupsQuery = {
  website: {
    id: string;
    errorGroups: {
      groups: Array<{
        fingerprint: string;
        message: string;
        stack: string | null;
        occurrences: number;
        affectedVisitors: number;
        totalOccurrences: number;
        firstSeen: string;
        lastSeen: string;
        lastPage: string | null;
      }>;
      pagination: { limit: number; offset: number; hasMore: boolean };
    };
  } | null;
};

export type GetWebsiteQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;

export type GetWebsiteQuery = {
  website: {
    id: string;
    name: string;
    domain: string;
    trackingCode: string;
    createdAt: string;
  } | null;
};

export type HeatmapPagesQueryVariables = Exact<{
  websiteId: Scalars['ID']['input'];
  range: AnalyticsRange;
  limit: Scalars['Int']['input'];
  offset: Scalars['Int']['input'];
}>;

export type HeatmapPagesQuery = {
  website: {
    id: string;
    heatmapPages: {
      pages: Array<{
        path: string;
        clicks: number;
        visitors: number;
        cells: Array<[number, number, number]>;
      }>;
      pagination: { limit: number; offset: number; hasMore: boolean };
    };
  } | null;
};

export type ListWebhooksQueryVariables = Exact<{ [key: string]: never }>;

export type ListWebhooksQuery = {
  myWebhooks: Array<{
    id: string;
    url: string;
    description: string | null;
    eventTypes: Array<string>;
    status: WebhookStatus;
    disabledReason: string | null;
    createdAt: string;
    secretRotatedAt: string | null;
    alerts: {
      websiteIds: Array<string> | null;
      spikeRatio: number;
      dropRatio: number;
      reportHour: number;
      goalEvery: number | null;
    };
  }>;
};

export type ListWebsitesQueryVariables = Exact<{ [key: string]: never }>;

export type ListWebsitesQuery = {
  websites: Array<{
    id: string;
    name: string;
    domain: string;
    trackingCode: string;
    createdAt: string;
  }>;
};

export type RecoverWebhookDeliveriesMutationVariables = Exact<{
  webhookId: Scalars['ID']['input'];
  since: Scalars['String']['input'];
}>;

export type RecoverWebhookDeliveriesMutation = { recoverWebhookDeliveries: { queued: number } };

export type RedeliverWebhookDeliveryMutationVariables = Exact<{
  webhookId: Scalars['ID']['input'];
  deliveryId: Scalars['ID']['input'];
}>;

export type RedeliverWebhookDeliveryMutation = {
  redeliverWebhookDelivery: {
    deliveryId: string;
    eventId: string;
    success: boolean;
    statusCode: number | null;
    responseBody: string;
    responseBodyTruncated: boolean;
    durationMs: number;
    error: string | null;
  };
};

export type ReplaySessionsQueryVariables = Exact<{
  websiteId: Scalars['ID']['input'];
  range: AnalyticsRange;
  limit: Scalars['Int']['input'];
  offset: Scalars['Int']['input'];
}>;

export type ReplaySessionsQuery = {
  website: {
    id: string;
    replaySessions: {
      sessions: Array<{
        id: string;
        visitorId: string;
        startedAt: string;
        lastActivity: string;
        chunks: number;
        bytes: number;
        entryPage: string;
        country: string | null;
        device: string | null;
        browser: string | null;
        os: string | null;
      }>;
      pagination: { limit: number; offset: number; hasMore: boolean };
    };
  } | null;
};

export type RotateWebhookSecretMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;

export type RotateWebhookSecretMutation = {
  rotateWebhookSecret: {
    secret: string;
    webhook: {
      id: string;
      url: string;
      description: string | null;
      eventTypes: Array<string>;
      status: WebhookStatus;
      disabledReason: string | null;
      createdAt: string;
      secretRotatedAt: string | null;
      alerts: {
        websiteIds: Array<string> | null;
        spikeRatio: number;
        dropRatio: number;
        reportHour: number;
        goalEvery: number | null;
      };
    };
  };
};

export type SetWebhookAlertsMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  input: WebhookAlertsInput;
}>;

export type SetWebhookAlertsMutation = {
  setWebhookAlerts: {
    id: string;
    url: string;
    description: string | null;
    eventTypes: Array<string>;
    status: WebhookStatus;
    disabledReason: string | null;
    createdAt: string;
    secretRotatedAt: string | null;
    alerts: {
      websiteIds: Array<string> | null;
      spikeRatio: number;
      dropRatio: number;
      reportHour: number;
      goalEvery: number | null;
    };
  };
};

export type TestWebhookMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;

export type TestWebhookMutation = {
  testWebhook: {
    deliveryId: string;
    eventId: string;
    success: boolean;
    statusCode: number | null;
    responseBody: string;
    responseBodyTruncated: boolean;
    durationMs: number;
    error: string | null;
  };
};

export type UsageQueryVariables = Exact<{ [key: string]: never }>;

export type UsageQuery = {
  viewer: { plan: Plan; limits: { requestsPerMinute: number; requestsPerMonth: number } };
};

export type ViewerQueryVariables = Exact<{ [key: string]: never }>;

export type ViewerQuery = {
  viewer: {
    plan: Plan;
    billingOrganization: { id: string };
    user: { id: string };
    apiKey: {
      id: string;
      permissions: Array<Permission>;
      websiteAccess: WebsiteAccess;
      expiresAt: string | null;
      websites: Array<{ id: string }>;
      organization: { id: string };
    } | null;
    limits: { requestsPerMinute: number; requestsPerMonth: number };
  };
};

export type WebhookDeliveriesQueryVariables = Exact<{
  webhookId: Scalars['ID']['input'];
  status?: InputMaybe<WebhookDeliveryStatus>;
  since?: InputMaybe<Scalars['String']['input']>;
  until?: InputMaybe<Scalars['String']['input']>;
  limit: Scalars['Int']['input'];
  startingAfter?: InputMaybe<Scalars['ID']['input']>;
}>;

export type WebhookDeliveriesQuery = {
  webhookDeliveries: {
    hasMore: boolean;
    deliveries: Array<{
      id: string;
      eventId: string;
      eventType: string;
      status: WebhookDeliveryStatus;
      test: boolean;
      createdAt: string;
      nextAttemptAt: string | null;
      attempts: Array<{
        attempt: number;
        at: string;
        statusCode: number | null;
        durationMs: number;
        error: string | null;
        responseBody: string;
      }>;
    }>;
  };
};

export type WebhookEventCatalogueQueryVariables = Exact<{ [key: string]: never }>;

export type WebhookEventCatalogueQuery = {
  webhookEventCatalogue: Array<{
    type: string;
    description: string;
    subscribable: boolean;
    schema: string;
  }>;
};

export type WebsiteByTrackingCodeQueryVariables = Exact<{
  trackingCode: Scalars['String']['input'];
}>;

export type WebsiteByTrackingCodeQuery = { websiteByTrackingCode: { id: string } | null };

export type PageFieldsFragment = { limit: number; offset: number; hasMore: boolean };

export type PlanLimitsFragment = {
  plan: Plan;
  limits: { requestsPerMinute: number; requestsPerMonth: number };
};

export type RowCountsFragment = {
  value: string;
  visitors: number;
  pageviews: number;
  sessions: number;
};

export type WebhookFieldsFragment = {
  id: string;
  url: string;
  description: string | null;
  eventTypes: Array<string>;
  status: WebhookStatus;
  disabledReason: string | null;
  createdAt: string;
  secretRotatedAt: string | null;
  alerts: {
    websiteIds: Array<string> | null;
    spikeRatio: number;
    dropRatio: number;
    reportHour: number;
    goalEvery: number | null;
  };
};

export type WebhookSendFieldsFragment = {
  deliveryId: string;
  eventId: string;
  success: boolean;
  statusCode: number | null;
  responseBody: string;
  responseBodyTruncated: boolean;
  durationMs: number;
  error: string | null;
};

export type WebsiteFieldsFragment = {
  id: string;
  name: string;
  domain: string;
  trackingCode: string;
  createdAt: string;
};

export const PageFieldsFragmentDoc = {
  kind: 'Document',
  definitions: [
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'PageFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Pagination' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'limit' } },
          { kind: 'Field', name: { kind: 'Name', value: 'offset' } },
          { kind: 'Field', name: { kind: 'Name', value: 'hasMore' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<PageFieldsFragment, unknown>;
export const PlanLimitsFragmentDoc = {
  kind: 'Document',
  definitions: [
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'PlanLimits' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Viewer' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'plan' } },
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'limits' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'requestsPerMinute' } },
                { kind: 'Field', name: { kind: 'Name', value: 'requestsPerMonth' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<PlanLimitsFragment, unknown>;
export const RowCountsFragmentDoc = {
  kind: 'Document',
  definitions: [
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'RowCounts' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'BreakdownRow' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'value' } },
          { kind: 'Field', name: { kind: 'Name', value: 'visitors' } },
          { kind: 'Field', name: { kind: 'Name', value: 'pageviews' } },
          { kind: 'Field', name: { kind: 'Name', value: 'sessions' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RowCountsFragment, unknown>;
export const WebhookFieldsFragmentDoc = {
  kind: 'Document',
  definitions: [
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebhookFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Webhook' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'id' } },
          { kind: 'Field', name: { kind: 'Name', value: 'url' } },
          { kind: 'Field', name: { kind: 'Name', value: 'description' } },
          { kind: 'Field', name: { kind: 'Name', value: 'eventTypes' } },
          { kind: 'Field', name: { kind: 'Name', value: 'status' } },
          { kind: 'Field', name: { kind: 'Name', value: 'disabledReason' } },
          { kind: 'Field', name: { kind: 'Name', value: 'createdAt' } },
          { kind: 'Field', name: { kind: 'Name', value: 'secretRotatedAt' } },
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'alerts' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'websiteIds' } },
                { kind: 'Field', name: { kind: 'Name', value: 'spikeRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'dropRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'reportHour' } },
                { kind: 'Field', name: { kind: 'Name', value: 'goalEvery' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WebhookFieldsFragment, unknown>;
export const WebhookSendFieldsFragmentDoc = {
  kind: 'Document',
  definitions: [
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebhookSendFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'WebhookTestResult' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'deliveryId' } },
          { kind: 'Field', name: { kind: 'Name', value: 'eventId' } },
          { kind: 'Field', name: { kind: 'Name', value: 'success' } },
          { kind: 'Field', name: { kind: 'Name', value: 'statusCode' } },
          { kind: 'Field', name: { kind: 'Name', value: 'responseBody' } },
          { kind: 'Field', name: { kind: 'Name', value: 'responseBodyTruncated' } },
          { kind: 'Field', name: { kind: 'Name', value: 'durationMs' } },
          { kind: 'Field', name: { kind: 'Name', value: 'error' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WebhookSendFieldsFragment, unknown>;
export const WebsiteFieldsFragmentDoc = {
  kind: 'Document',
  definitions: [
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebsiteFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Website' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'id' } },
          { kind: 'Field', name: { kind: 'Name', value: 'name' } },
          { kind: 'Field', name: { kind: 'Name', value: 'domain' } },
          { kind: 'Field', name: { kind: 'Name', value: 'trackingCode' } },
          { kind: 'Field', name: { kind: 'Name', value: 'createdAt' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WebsiteFieldsFragment, unknown>;
export const AnalyticsBreakdownDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'AnalyticsBreakdown' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'dimension' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'BreakdownDimension' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'AnalyticsRange' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'offset' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'website' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'breakdown' },
                  arguments: [
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'dimension' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'dimension' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'range' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'limit' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'offset' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'offset' } },
                    },
                  ],
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      { kind: 'Field', name: { kind: 'Name', value: 'dimension' } },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'rows' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'FragmentSpread', name: { kind: 'Name', value: 'RowCounts' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'bounceRate' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'avgVisitDuration' } },
                          ],
                        },
                      },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'pagination' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'FragmentSpread', name: { kind: 'Name', value: 'PageFields' } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'RowCounts' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'BreakdownRow' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'value' } },
          { kind: 'Field', name: { kind: 'Name', value: 'visitors' } },
          { kind: 'Field', name: { kind: 'Name', value: 'pageviews' } },
          { kind: 'Field', name: { kind: 'Name', value: 'sessions' } },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'PageFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Pagination' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'limit' } },
          { kind: 'Field', name: { kind: 'Name', value: 'offset' } },
          { kind: 'Field', name: { kind: 'Name', value: 'hasMore' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<AnalyticsBreakdownQuery, AnalyticsBreakdownQueryVariables>;
export const AnalyticsOverviewDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'AnalyticsOverview' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'AnalyticsRange' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'website' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'overview' },
                  arguments: [
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'range' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
                    },
                  ],
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      { kind: 'Field', name: { kind: 'Name', value: 'range' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'granularity' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'from' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'to' } },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'summary' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'Field', name: { kind: 'Name', value: 'totalVisitors' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'pageviews' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'uniqueVisitors' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'sessions' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'bounceRate' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'avgVisitDuration' } },
                          ],
                        },
                      },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'series' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'Field', name: { kind: 'Name', value: 'date' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'pageviews' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'visitors' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'sessions' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'bounces' } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<AnalyticsOverviewQuery, AnalyticsOverviewQueryVariables>;
export const AnalyticsStatsDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'AnalyticsStats' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'query' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'StatsQuery' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'website' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'stats' },
                  arguments: [
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'query' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'query' } },
                    },
                  ],
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      { kind: 'Field', name: { kind: 'Name', value: 'metrics' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'dimensions' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'limit' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'offset' } },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'results' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'Field', name: { kind: 'Name', value: 'dimensions' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'metrics' } },
                            {
                              kind: 'Field',
                              name: { kind: 'Name', value: 'comparison' },
                              selectionSet: {
                                kind: 'SelectionSet',
                                selections: [
                                  { kind: 'Field', name: { kind: 'Name', value: 'dimensions' } },
                                  { kind: 'Field', name: { kind: 'Name', value: 'metrics' } },
                                  { kind: 'Field', name: { kind: 'Name', value: 'change' } },
                                ],
                              },
                            },
                          ],
                        },
                      },
                      { kind: 'Field', name: { kind: 'Name', value: 'totalRows' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'timeLabels' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'from' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'to' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'comparisonFrom' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'comparisonTo' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'hasMore' } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<AnalyticsStatsQuery, AnalyticsStatsQueryVariables>;
export const AnalyticsTechnologyDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'AnalyticsTechnology' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'AnalyticsRange' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'website' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'technology' },
                  arguments: [
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'range' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'limit' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
                    },
                  ],
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'devices' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'FragmentSpread', name: { kind: 'Name', value: 'RowCounts' } },
                          ],
                        },
                      },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'browsers' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'FragmentSpread', name: { kind: 'Name', value: 'RowCounts' } },
                          ],
                        },
                      },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'operatingSystems' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'FragmentSpread', name: { kind: 'Name', value: 'RowCounts' } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'RowCounts' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'BreakdownRow' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'value' } },
          { kind: 'Field', name: { kind: 'Name', value: 'visitors' } },
          { kind: 'Field', name: { kind: 'Name', value: 'pageviews' } },
          { kind: 'Field', name: { kind: 'Name', value: 'sessions' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<AnalyticsTechnologyQuery, AnalyticsTechnologyQueryVariables>;
export const AnalyticsVisitorsDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'AnalyticsVisitors' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'AnalyticsRange' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'offset' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'website' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'visitors' },
                  arguments: [
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'range' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'limit' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'offset' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'offset' } },
                    },
                  ],
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'visitors' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'country' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'device' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'browser' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'os' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'firstSeen' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'lastSeen' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'pageviews' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'sessions' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'entryPage' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'lastPage' } },
                          ],
                        },
                      },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'pagination' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'FragmentSpread', name: { kind: 'Name', value: 'PageFields' } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'PageFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Pagination' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'limit' } },
          { kind: 'Field', name: { kind: 'Name', value: 'offset' } },
          { kind: 'Field', name: { kind: 'Name', value: 'hasMore' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<AnalyticsVisitorsQuery, AnalyticsVisitorsQueryVariables>;
export const CreateWebhookDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'mutation',
      name: { kind: 'Name', value: 'CreateWebhook' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'input' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'CreateWebhookInput' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'createWebhook' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'input' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'input' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'secret' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'webhook' },
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      { kind: 'FragmentSpread', name: { kind: 'Name', value: 'WebhookFields' } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebhookFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Webhook' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'id' } },
          { kind: 'Field', name: { kind: 'Name', value: 'url' } },
          { kind: 'Field', name: { kind: 'Name', value: 'description' } },
          { kind: 'Field', name: { kind: 'Name', value: 'eventTypes' } },
          { kind: 'Field', name: { kind: 'Name', value: 'status' } },
          { kind: 'Field', name: { kind: 'Name', value: 'disabledReason' } },
          { kind: 'Field', name: { kind: 'Name', value: 'createdAt' } },
          { kind: 'Field', name: { kind: 'Name', value: 'secretRotatedAt' } },
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'alerts' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'websiteIds' } },
                { kind: 'Field', name: { kind: 'Name', value: 'spikeRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'dropRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'reportHour' } },
                { kind: 'Field', name: { kind: 'Name', value: 'goalEvery' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreateWebhookMutation, CreateWebhookMutationVariables>;
export const DeleteWebhookDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'mutation',
      name: { kind: 'Name', value: 'DeleteWebhook' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'deleteWebhook' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                { kind: 'Field', name: { kind: 'Name', value: 'status' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeleteWebhookMutation, DeleteWebhookMutationVariables>;
export const EnableWebhookDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'mutation',
      name: { kind: 'Name', value: 'EnableWebhook' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'enableWebhook' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'FragmentSpread', name: { kind: 'Name', value: 'WebhookFields' } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebhookFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Webhook' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'id' } },
          { kind: 'Field', name: { kind: 'Name', value: 'url' } },
          { kind: 'Field', name: { kind: 'Name', value: 'description' } },
          { kind: 'Field', name: { kind: 'Name', value: 'eventTypes' } },
          { kind: 'Field', name: { kind: 'Name', value: 'status' } },
          { kind: 'Field', name: { kind: 'Name', value: 'disabledReason' } },
          { kind: 'Field', name: { kind: 'Name', value: 'createdAt' } },
          { kind: 'Field', name: { kind: 'Name', value: 'secretRotatedAt' } },
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'alerts' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'websiteIds' } },
                { kind: 'Field', name: { kind: 'Name', value: 'spikeRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'dropRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'reportHour' } },
                { kind: 'Field', name: { kind: 'Name', value: 'goalEvery' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<EnableWebhookMutation, EnableWebhookMutationVariables>;
export const ErrorGroupsDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'ErrorGroups' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'AnalyticsRange' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'offset' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'website' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'errorGroups' },
                  arguments: [
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'range' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'limit' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'offset' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'offset' } },
                    },
                  ],
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'groups' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'Field', name: { kind: 'Name', value: 'fingerprint' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'message' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'stack' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'occurrences' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'affectedVisitors' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'totalOccurrences' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'firstSeen' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'lastSeen' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'lastPage' } },
                          ],
                        },
                      },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'pagination' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'FragmentSpread', name: { kind: 'Name', value: 'PageFields' } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'PageFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Pagination' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'limit' } },
          { kind: 'Field', name: { kind: 'Name', value: 'offset' } },
          { kind: 'Field', name: { kind: 'Name', value: 'hasMore' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ErrorGroupsQuery, ErrorGroupsQueryVariables>;
export const GetWebsiteDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'GetWebsite' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'website' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'FragmentSpread', name: { kind: 'Name', value: 'WebsiteFields' } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebsiteFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Website' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'id' } },
          { kind: 'Field', name: { kind: 'Name', value: 'name' } },
          { kind: 'Field', name: { kind: 'Name', value: 'domain' } },
          { kind: 'Field', name: { kind: 'Name', value: 'trackingCode' } },
          { kind: 'Field', name: { kind: 'Name', value: 'createdAt' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<GetWebsiteQuery, GetWebsiteQueryVariables>;
export const HeatmapPagesDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'HeatmapPages' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'AnalyticsRange' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'offset' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'website' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'heatmapPages' },
                  arguments: [
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'range' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'limit' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'offset' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'offset' } },
                    },
                  ],
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'pages' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'Field', name: { kind: 'Name', value: 'path' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'clicks' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'visitors' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'cells' } },
                          ],
                        },
                      },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'pagination' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'FragmentSpread', name: { kind: 'Name', value: 'PageFields' } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'PageFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Pagination' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'limit' } },
          { kind: 'Field', name: { kind: 'Name', value: 'offset' } },
          { kind: 'Field', name: { kind: 'Name', value: 'hasMore' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<HeatmapPagesQuery, HeatmapPagesQueryVariables>;
export const ListWebhooksDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'ListWebhooks' },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'myWebhooks' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'FragmentSpread', name: { kind: 'Name', value: 'WebhookFields' } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebhookFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Webhook' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'id' } },
          { kind: 'Field', name: { kind: 'Name', value: 'url' } },
          { kind: 'Field', name: { kind: 'Name', value: 'description' } },
          { kind: 'Field', name: { kind: 'Name', value: 'eventTypes' } },
          { kind: 'Field', name: { kind: 'Name', value: 'status' } },
          { kind: 'Field', name: { kind: 'Name', value: 'disabledReason' } },
          { kind: 'Field', name: { kind: 'Name', value: 'createdAt' } },
          { kind: 'Field', name: { kind: 'Name', value: 'secretRotatedAt' } },
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'alerts' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'websiteIds' } },
                { kind: 'Field', name: { kind: 'Name', value: 'spikeRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'dropRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'reportHour' } },
                { kind: 'Field', name: { kind: 'Name', value: 'goalEvery' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ListWebhooksQuery, ListWebhooksQueryVariables>;
export const ListWebsitesDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'ListWebsites' },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'websites' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'FragmentSpread', name: { kind: 'Name', value: 'WebsiteFields' } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebsiteFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Website' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'id' } },
          { kind: 'Field', name: { kind: 'Name', value: 'name' } },
          { kind: 'Field', name: { kind: 'Name', value: 'domain' } },
          { kind: 'Field', name: { kind: 'Name', value: 'trackingCode' } },
          { kind: 'Field', name: { kind: 'Name', value: 'createdAt' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ListWebsitesQuery, ListWebsitesQueryVariables>;
export const RecoverWebhookDeliveriesDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'mutation',
      name: { kind: 'Name', value: 'RecoverWebhookDeliveries' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'webhookId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'since' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'String' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'recoverWebhookDeliveries' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'webhookId' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'webhookId' } },
              },
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'since' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'since' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [{ kind: 'Field', name: { kind: 'Name', value: 'queued' } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<
  RecoverWebhookDeliveriesMutation,
  RecoverWebhookDeliveriesMutationVariables
>;
export const RedeliverWebhookDeliveryDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'mutation',
      name: { kind: 'Name', value: 'RedeliverWebhookDelivery' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'webhookId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'deliveryId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'redeliverWebhookDelivery' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'webhookId' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'webhookId' } },
              },
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'deliveryId' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'deliveryId' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'FragmentSpread', name: { kind: 'Name', value: 'WebhookSendFields' } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebhookSendFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'WebhookTestResult' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'deliveryId' } },
          { kind: 'Field', name: { kind: 'Name', value: 'eventId' } },
          { kind: 'Field', name: { kind: 'Name', value: 'success' } },
          { kind: 'Field', name: { kind: 'Name', value: 'statusCode' } },
          { kind: 'Field', name: { kind: 'Name', value: 'responseBody' } },
          { kind: 'Field', name: { kind: 'Name', value: 'responseBodyTruncated' } },
          { kind: 'Field', name: { kind: 'Name', value: 'durationMs' } },
          { kind: 'Field', name: { kind: 'Name', value: 'error' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<
  RedeliverWebhookDeliveryMutation,
  RedeliverWebhookDeliveryMutationVariables
>;
export const ReplaySessionsDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'ReplaySessions' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'AnalyticsRange' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'offset' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'website' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'websiteId' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'replaySessions' },
                  arguments: [
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'range' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'range' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'limit' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
                    },
                    {
                      kind: 'Argument',
                      name: { kind: 'Name', value: 'offset' },
                      value: { kind: 'Variable', name: { kind: 'Name', value: 'offset' } },
                    },
                  ],
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'sessions' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'visitorId' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'startedAt' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'lastActivity' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'chunks' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'bytes' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'entryPage' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'country' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'device' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'browser' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'os' } },
                          ],
                        },
                      },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'pagination' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'FragmentSpread', name: { kind: 'Name', value: 'PageFields' } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'PageFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Pagination' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'limit' } },
          { kind: 'Field', name: { kind: 'Name', value: 'offset' } },
          { kind: 'Field', name: { kind: 'Name', value: 'hasMore' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ReplaySessionsQuery, ReplaySessionsQueryVariables>;
export const RotateWebhookSecretDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'mutation',
      name: { kind: 'Name', value: 'RotateWebhookSecret' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'rotateWebhookSecret' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'secret' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'webhook' },
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      { kind: 'FragmentSpread', name: { kind: 'Name', value: 'WebhookFields' } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebhookFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Webhook' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'id' } },
          { kind: 'Field', name: { kind: 'Name', value: 'url' } },
          { kind: 'Field', name: { kind: 'Name', value: 'description' } },
          { kind: 'Field', name: { kind: 'Name', value: 'eventTypes' } },
          { kind: 'Field', name: { kind: 'Name', value: 'status' } },
          { kind: 'Field', name: { kind: 'Name', value: 'disabledReason' } },
          { kind: 'Field', name: { kind: 'Name', value: 'createdAt' } },
          { kind: 'Field', name: { kind: 'Name', value: 'secretRotatedAt' } },
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'alerts' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'websiteIds' } },
                { kind: 'Field', name: { kind: 'Name', value: 'spikeRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'dropRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'reportHour' } },
                { kind: 'Field', name: { kind: 'Name', value: 'goalEvery' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RotateWebhookSecretMutation, RotateWebhookSecretMutationVariables>;
export const SetWebhookAlertsDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'mutation',
      name: { kind: 'Name', value: 'SetWebhookAlerts' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'input' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'WebhookAlertsInput' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'setWebhookAlerts' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
              },
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'input' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'input' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'FragmentSpread', name: { kind: 'Name', value: 'WebhookFields' } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebhookFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Webhook' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'id' } },
          { kind: 'Field', name: { kind: 'Name', value: 'url' } },
          { kind: 'Field', name: { kind: 'Name', value: 'description' } },
          { kind: 'Field', name: { kind: 'Name', value: 'eventTypes' } },
          { kind: 'Field', name: { kind: 'Name', value: 'status' } },
          { kind: 'Field', name: { kind: 'Name', value: 'disabledReason' } },
          { kind: 'Field', name: { kind: 'Name', value: 'createdAt' } },
          { kind: 'Field', name: { kind: 'Name', value: 'secretRotatedAt' } },
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'alerts' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'websiteIds' } },
                { kind: 'Field', name: { kind: 'Name', value: 'spikeRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'dropRatio' } },
                { kind: 'Field', name: { kind: 'Name', value: 'reportHour' } },
                { kind: 'Field', name: { kind: 'Name', value: 'goalEvery' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<SetWebhookAlertsMutation, SetWebhookAlertsMutationVariables>;
export const TestWebhookDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'mutation',
      name: { kind: 'Name', value: 'TestWebhook' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'testWebhook' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'id' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'id' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'FragmentSpread', name: { kind: 'Name', value: 'WebhookSendFields' } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'WebhookSendFields' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'WebhookTestResult' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'deliveryId' } },
          { kind: 'Field', name: { kind: 'Name', value: 'eventId' } },
          { kind: 'Field', name: { kind: 'Name', value: 'success' } },
          { kind: 'Field', name: { kind: 'Name', value: 'statusCode' } },
          { kind: 'Field', name: { kind: 'Name', value: 'responseBody' } },
          { kind: 'Field', name: { kind: 'Name', value: 'responseBodyTruncated' } },
          { kind: 'Field', name: { kind: 'Name', value: 'durationMs' } },
          { kind: 'Field', name: { kind: 'Name', value: 'error' } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<TestWebhookMutation, TestWebhookMutationVariables>;
export const UsageDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'Usage' },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'viewer' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [{ kind: 'FragmentSpread', name: { kind: 'Name', value: 'PlanLimits' } }],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'PlanLimits' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Viewer' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'plan' } },
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'limits' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'requestsPerMinute' } },
                { kind: 'Field', name: { kind: 'Name', value: 'requestsPerMonth' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<UsageQuery, UsageQueryVariables>;
export const ViewerDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'Viewer' },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'viewer' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'FragmentSpread', name: { kind: 'Name', value: 'PlanLimits' } },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'billingOrganization' },
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [{ kind: 'Field', name: { kind: 'Name', value: 'id' } }],
                  },
                },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'user' },
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [{ kind: 'Field', name: { kind: 'Name', value: 'id' } }],
                  },
                },
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'apiKey' },
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'permissions' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'websiteAccess' } },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'websites' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [{ kind: 'Field', name: { kind: 'Name', value: 'id' } }],
                        },
                      },
                      { kind: 'Field', name: { kind: 'Name', value: 'expiresAt' } },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'organization' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [{ kind: 'Field', name: { kind: 'Name', value: 'id' } }],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'FragmentDefinition',
      name: { kind: 'Name', value: 'PlanLimits' },
      typeCondition: { kind: 'NamedType', name: { kind: 'Name', value: 'Viewer' } },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          { kind: 'Field', name: { kind: 'Name', value: 'plan' } },
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'limits' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'requestsPerMinute' } },
                { kind: 'Field', name: { kind: 'Name', value: 'requestsPerMonth' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const WebhookDeliveriesDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'WebhookDeliveries' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'webhookId' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'status' } },
          type: { kind: 'NamedType', name: { kind: 'Name', value: 'WebhookDeliveryStatus' } },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'since' } },
          type: { kind: 'NamedType', name: { kind: 'Name', value: 'String' } },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'until' } },
          type: { kind: 'NamedType', name: { kind: 'Name', value: 'String' } },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'Int' } },
          },
        },
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'startingAfter' } },
          type: { kind: 'NamedType', name: { kind: 'Name', value: 'ID' } },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'webhookDeliveries' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'webhookId' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'webhookId' } },
              },
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'status' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'status' } },
              },
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'since' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'since' } },
              },
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'until' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'until' } },
              },
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'limit' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'limit' } },
              },
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'startingAfter' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'startingAfter' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                {
                  kind: 'Field',
                  name: { kind: 'Name', value: 'deliveries' },
                  selectionSet: {
                    kind: 'SelectionSet',
                    selections: [
                      { kind: 'Field', name: { kind: 'Name', value: 'id' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'eventId' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'eventType' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'status' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'test' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'createdAt' } },
                      { kind: 'Field', name: { kind: 'Name', value: 'nextAttemptAt' } },
                      {
                        kind: 'Field',
                        name: { kind: 'Name', value: 'attempts' },
                        selectionSet: {
                          kind: 'SelectionSet',
                          selections: [
                            { kind: 'Field', name: { kind: 'Name', value: 'attempt' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'at' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'statusCode' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'durationMs' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'error' } },
                            { kind: 'Field', name: { kind: 'Name', value: 'responseBody' } },
                          ],
                        },
                      },
                    ],
                  },
                },
                { kind: 'Field', name: { kind: 'Name', value: 'hasMore' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables>;
export const WebhookEventCatalogueDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'WebhookEventCatalogue' },
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'webhookEventCatalogue' },
            selectionSet: {
              kind: 'SelectionSet',
              selections: [
                { kind: 'Field', name: { kind: 'Name', value: 'type' } },
                { kind: 'Field', name: { kind: 'Name', value: 'description' } },
                { kind: 'Field', name: { kind: 'Name', value: 'subscribable' } },
                { kind: 'Field', name: { kind: 'Name', value: 'schema' } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WebhookEventCatalogueQuery, WebhookEventCatalogueQueryVariables>;
export const WebsiteByTrackingCodeDocument = {
  kind: 'Document',
  definitions: [
    {
      kind: 'OperationDefinition',
      operation: 'query',
      name: { kind: 'Name', value: 'WebsiteByTrackingCode' },
      variableDefinitions: [
        {
          kind: 'VariableDefinition',
          variable: { kind: 'Variable', name: { kind: 'Name', value: 'trackingCode' } },
          type: {
            kind: 'NonNullType',
            type: { kind: 'NamedType', name: { kind: 'Name', value: 'String' } },
          },
        },
      ],
      selectionSet: {
        kind: 'SelectionSet',
        selections: [
          {
            kind: 'Field',
            name: { kind: 'Name', value: 'websiteByTrackingCode' },
            arguments: [
              {
                kind: 'Argument',
                name: { kind: 'Name', value: 'trackingCode' },
                value: { kind: 'Variable', name: { kind: 'Name', value: 'trackingCode' } },
              },
            ],
            selectionSet: {
              kind: 'SelectionSet',
              selections: [{ kind: 'Field', name: { kind: 'Name', value: 'id' } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WebsiteByTrackingCodeQuery, WebsiteByTrackingCodeQueryVariables>;
