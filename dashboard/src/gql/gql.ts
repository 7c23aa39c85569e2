/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Me {\n    me {\n      id\n      email\n      memberships {\n        role\n        organization {\n          id\n          name\n          plan\n        }\n      }\n    }\n  }\n": typeof types.MeDocument,
    "\n  query ApiKeys($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      apiKeys {\n        id\n        name\n        prefix\n        createdAt\n        lastUsedAt\n      }\n    }\n  }\n": typeof types.ApiKeysDocument,
    "\n  query KeyCalls(\n    $id: ID!\n    $from: String\n    $to: String\n    $endpoint: String\n    $first: Int!\n    $after: String\n  ) {\n    apiKey(id: $id) {\n      id\n      calls(from: $from, to: $to, endpoint: $endpoint, first: $first, after: $after) {\n        nodes {\n          id\n          at\n          method\n          endpoint\n          path\n          status\n          ip\n          durationMs\n          requestId\n        }\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.KeyCallsDocument,
    "\n  query CreateKeyWebsites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n        domain\n      }\n    }\n  }\n": typeof types.CreateKeyWebsitesDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      key\n      apiKey {\n        id\n        name\n        prefix\n        createdAt\n        lastUsedAt\n      }\n    }\n  }\n": typeof types.CreateApiKeyDocument,
    "\n  mutation RegenerateApiKey($id: ID!) {\n    regenerateApiKey(id: $id) {\n      key\n      apiKey {\n        id\n        prefix\n        lastUsedAt\n      }\n    }\n  }\n": typeof types.RegenerateApiKeyDocument,
    "\n  mutation DeleteApiKey($id: ID!) {\n    deleteApiKey(id: $id)\n  }\n": typeof types.DeleteApiKeyDocument,
    "\n  query KeyDetails($id: ID!) {\n    apiKey(id: $id) {\n      id\n      name\n      description\n      prefix\n      permissions\n      websiteAccess\n      websites {\n        id\n        name\n      }\n      expiresAt\n      createdAt\n      lastUsedAt\n    }\n  }\n": typeof types.KeyDetailsDocument,
    "\n  query KeyUsage($id: ID!) {\n    apiKey(id: $id) {\n      id\n      usage {\n        totalRequests\n        recentActivity {\n          date\n          requests\n        }\n      }\n    }\n  }\n": typeof types.KeyUsageDocument,
    "\n  query OrganizationUsage($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      plan\n      limits {\n        requestsPerMinute\n        requestsPerMonth\n      }\n      usage {\n        month\n        requests\n        resetsAt\n        daily {\n          date\n          requests\n        }\n      }\n    }\n  }\n": typeof types.OrganizationUsageDocument,
    "\n  query WebhookEventTypes {\n    webhookEventTypes\n  }\n": typeof types.WebhookEventTypesDocument,
    "\n  mutation CreateWebhook($input: CreateWebhookInput!) {\n    createWebhook(input: $input) {\n      secret\n      webhook {\n        id\n        url\n        description\n        eventTypes\n        status\n        createdAt\n      }\n    }\n  }\n": typeof types.CreateWebhookDocument,
    "\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) {\n      secret\n      webhook {\n        id\n        secretRotatedAt\n      }\n    }\n  }\n": typeof types.RotateWebhookSecretDocument,
    "\n  mutation DeleteWebhook($id: ID!) {\n    deleteWebhook(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.DeleteWebhookDocument,
    "\n  query AlertWebsites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n      }\n    }\n  }\n": typeof types.AlertWebsitesDocument,
    "\n  fragment WebhookAlertFields on WebhookAlerts {\n    websiteIds\n    spikeRatio\n    dropRatio\n    reportHour\n    goalEvery\n  }\n": typeof types.WebhookAlertFieldsFragmentDoc,
    "\n  mutation SetWebhookAlertsSettings($id: ID!, $input: WebhookAlertsInput!) {\n    setWebhookAlerts(id: $id, input: $input) {\n      id\n      alerts {\n        ...WebhookAlertFields\n      }\n    }\n  }\n": typeof types.SetWebhookAlertsSettingsDocument,
    "\n  query WebhookDetails {\n    myWebhooks {\n      id\n      url\n      description\n      eventTypes\n      status\n      disabledReason\n      createdAt\n      secretRotatedAt\n      alerts {\n        ...WebhookAlertFields\n      }\n      deliveries(limit: 20) {\n        id\n        eventId\n        eventType\n        status\n        test\n        createdAt\n        nextAttemptAt\n        attempts {\n          attempt\n          at\n          statusCode\n          durationMs\n          error\n        }\n      }\n    }\n  }\n": typeof types.WebhookDetailsDocument,
    "\n  mutation RedeliverDelivery($webhookId: ID!, $deliveryId: ID!) {\n    redeliverWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) {\n      deliveryId\n      success\n      statusCode\n      error\n    }\n  }\n": typeof types.RedeliverDeliveryDocument,
    "\n  mutation TestWebhook($id: ID!) {\n    testWebhook(id: $id) {\n      deliveryId\n      eventId\n      success\n      statusCode\n      responseBody\n      responseBodyTruncated\n      durationMs\n      error\n    }\n  }\n": typeof types.TestWebhookDocument,
    "\n  query Webhooks {\n    myWebhooks {\n      id\n      url\n      description\n      eventTypes\n      status\n      createdAt\n    }\n  }\n": typeof types.WebhooksDocument,
    "\n  mutation CreateGoal($input: CreateGoalInput!) {\n    createGoal(input: $input) {\n      id\n      name\n      kind\n      pagePath\n      eventName\n      currency\n      createdAt\n    }\n  }\n": typeof types.CreateGoalDocument,
    "\n  query WebsiteAnalytics($id: ID!, $range: AnalyticsRange!) {\n    website(id: $id) {\n      id\n      overview(range: $range) {\n        summary {\n          totalVisitors\n          uniqueVisitors\n          pageviews\n          sessions\n          bounceRate\n          avgVisitDuration\n        }\n        series {\n          date\n          visitors\n          pageviews\n        }\n      }\n      topPages: breakdown(dimension: PAGE, range: $range, limit: 10, offset: 0) {\n        rows {\n          value\n          visitors\n          pageviews\n        }\n      }\n      topCountries: breakdown(dimension: COUNTRY, range: $range, limit: 10, offset: 0) {\n        rows {\n          value\n          visitors\n          pageviews\n        }\n      }\n    }\n  }\n": typeof types.WebsiteAnalyticsDocument,
    "\n  query Website($id: ID!) {\n    website(id: $id) {\n      id\n      name\n      domain\n      trackingCode\n      organization {\n        id\n      }\n    }\n  }\n": typeof types.WebsiteDocument,
    "\n  query WebsiteExplore($id: ID!, $query: StatsQuery!) {\n    website(id: $id) {\n      id\n      stats(query: $query) {\n        totalRows\n        results {\n          dimensions\n          metrics\n        }\n      }\n    }\n  }\n": typeof types.WebsiteExploreDocument,
    "\n  query WebsiteGoals($id: ID!) {\n    website(id: $id) {\n      id\n      goals {\n        id\n        name\n        kind\n        pagePath\n        eventName\n        currency\n        createdAt\n      }\n    }\n  }\n": typeof types.WebsiteGoalsDocument,
    "\n  mutation DeleteGoal($websiteId: ID!, $id: ID!) {\n    deleteGoal(websiteId: $websiteId, id: $id)\n  }\n": typeof types.DeleteGoalDocument,
    "\n  query Websites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n        domain\n        trackingCode\n        createdAt\n      }\n    }\n  }\n": typeof types.WebsitesDocument,
};
const documents: Documents = {
    "\n  query Me {\n    me {\n      id\n      email\n      memberships {\n        role\n        organization {\n          id\n          name\n          plan\n        }\n      }\n    }\n  }\n": types.MeDocument,
    "\n  query ApiKeys($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      apiKeys {\n        id\n        name\n        prefix\n        createdAt\n        lastUsedAt\n      }\n    }\n  }\n": types.ApiKeysDocument,
    "\n  query KeyCalls(\n    $id: ID!\n    $from: String\n    $to: String\n    $endpoint: String\n    $first: Int!\n    $after: String\n  ) {\n    apiKey(id: $id) {\n      id\n      calls(from: $from, to: $to, endpoint: $endpoint, first: $first, after: $after) {\n        nodes {\n          id\n          at\n          method\n          endpoint\n          path\n          status\n          ip\n          durationMs\n          requestId\n        }\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.KeyCallsDocument,
    "\n  query CreateKeyWebsites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n        domain\n      }\n    }\n  }\n": types.CreateKeyWebsitesDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      key\n      apiKey {\n        id\n        name\n        prefix\n        createdAt\n        lastUsedAt\n      }\n    }\n  }\n": types.CreateApiKeyDocument,
    "\n  mutation RegenerateApiKey($id: ID!) {\n    regenerateApiKey(id: $id) {\n      key\n      apiKey {\n        id\n        prefix\n        lastUsedAt\n      }\n    }\n  }\n": types.RegenerateApiKeyDocument,
    "\n  mutation DeleteApiKey($id: ID!) {\n    deleteApiKey(id: $id)\n  }\n": types.DeleteApiKeyDocument,
    "\n  query KeyDetails($id: ID!) {\n    apiKey(id: $id) {\n      id\n      name\n      description\n      prefix\n      permissions\n      websiteAccess\n      websites {\n        id\n        name\n      }\n      expiresAt\n      createdAt\n      lastUsedAt\n    }\n  }\n": types.KeyDetailsDocument,
    "\n  query KeyUsage($id: ID!) {\n    apiKey(id: $id) {\n      id\n      usage {\n        totalRequests\n        recentActivity {\n          date\n          requests\n        }\n      }\n    }\n  }\n": types.KeyUsageDocument,
    "\n  query OrganizationUsage($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      plan\n      limits {\n        requestsPerMinute\n        requestsPerMonth\n      }\n      usage {\n        month\n        requests\n        resetsAt\n        daily {\n          date\n          requests\n        }\n      }\n    }\n  }\n": types.OrganizationUsageDocument,
    "\n  query WebhookEventTypes {\n    webhookEventTypes\n  }\n": types.WebhookEventTypesDocument,
    "\n  mutation CreateWebhook($input: CreateWebhookInput!) {\n    createWebhook(input: $input) {\n      secret\n      webhook {\n        id\n        url\n        description\n        eventTypes\n        status\n        createdAt\n      }\n    }\n  }\n": types.CreateWebhookDocument,
    "\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) {\n      secret\n      webhook {\n        id\n        secretRotatedAt\n      }\n    }\n  }\n": types.RotateWebhookSecretDocument,
    "\n  mutation DeleteWebhook($id: ID!) {\n    deleteWebhook(id: $id) {\n      id\n      status\n    }\n  }\n": types.DeleteWebhookDocument,
    "\n  query AlertWebsites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n      }\n    }\n  }\n": types.AlertWebsitesDocument,
    "\n  fragment WebhookAlertFields on WebhookAlerts {\n    websiteIds\n    spikeRatio\n    dropRatio\n    reportHour\n    goalEvery\n  }\n": types.WebhookAlertFieldsFragmentDoc,
    "\n  mutation SetWebhookAlertsSettings($id: ID!, $input: WebhookAlertsInput!) {\n    setWebhookAlerts(id: $id, input: $input) {\n      id\n      alerts {\n        ...WebhookAlertFields\n      }\n    }\n  }\n": types.SetWebhookAlertsSettingsDocument,
    "\n  query WebhookDetails {\n    myWebhooks {\n      id\n      url\n      description\n      eventTypes\n      status\n      disabledReason\n      createdAt\n      secretRotatedAt\n      alerts {\n        ...WebhookAlertFields\n      }\n      deliveries(limit: 20) {\n        id\n        eventId\n        eventType\n        status\n        test\n        createdAt\n        nextAttemptAt\n        attempts {\n          attempt\n          at\n          statusCode\n          durationMs\n          error\n        }\n      }\n    }\n  }\n": types.WebhookDetailsDocument,
    "\n  mutation RedeliverDelivery($webhookId: ID!, $deliveryId: ID!) {\n    redeliverWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) {\n      deliveryId\n      success\n      statusCode\n      error\n    }\n  }\n": types.RedeliverDeliveryDocument,
    "\n  mutation TestWebhook($id: ID!) {\n    testWebhook(id: $id) {\n      deliveryId\n      eventId\n      success\n      statusCode\n      responseBody\n      responseBodyTruncated\n      durationMs\n      error\n    }\n  }\n": types.TestWebhookDocument,
    "\n  query Webhooks {\n    myWebhooks {\n      id\n      url\n      description\n      eventTypes\n      status\n      createdAt\n    }\n  }\n": types.WebhooksDocument,
    "\n  mutation CreateGoal($input: CreateGoalInput!) {\n    createGoal(input: $input) {\n      id\n      name\n      kind\n      pagePath\n      eventName\n      currency\n      createdAt\n    }\n  }\n": types.CreateGoalDocument,
    "\n  query WebsiteAnalytics($id: ID!, $range: AnalyticsRange!) {\n    website(id: $id) {\n      id\n      overview(range: $range) {\n        summary {\n          totalVisitors\n          uniqueVisitors\n          pageviews\n          sessions\n          bounceRate\n          avgVisitDuration\n        }\n        series {\n          date\n          visitors\n          pageviews\n        }\n      }\n      topPages: breakdown(dimension: PAGE, range: $range, limit: 10, offset: 0) {\n        rows {\n          value\n          visitors\n          pageviews\n        }\n      }\n      topCountries: breakdown(dimension: COUNTRY, range: $range, limit: 10, offset: 0) {\n        rows {\n          value\n          visitors\n          pageviews\n        }\n      }\n    }\n  }\n": types.WebsiteAnalyticsDocument,
    "\n  query Website($id: ID!) {\n    website(id: $id) {\n      id\n      name\n      domain\n      trackingCode\n      organization {\n        id\n      }\n    }\n  }\n": types.WebsiteDocument,
    "\n  query WebsiteExplore($id: ID!, $query: StatsQuery!) {\n    website(id: $id) {\n      id\n      stats(query: $query) {\n        totalRows\n        results {\n          dimensions\n          metrics\n        }\n      }\n    }\n  }\n": types.WebsiteExploreDocument,
    "\n  query WebsiteGoals($id: ID!) {\n    website(id: $id) {\n      id\n      goals {\n        id\n        name\n        kind\n        pagePath\n        eventName\n        currency\n        createdAt\n      }\n    }\n  }\n": types.WebsiteGoalsDocument,
    "\n  mutation DeleteGoal($websiteId: ID!, $id: ID!) {\n    deleteGoal(websiteId: $websiteId, id: $id)\n  }\n": types.DeleteGoalDocument,
    "\n  query Websites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n        domain\n        trackingCode\n        createdAt\n      }\n    }\n  }\n": types.WebsitesDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      id\n      email\n      memberships {\n        role\n        organization {\n          id\n          name\n          plan\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      id\n      email\n      memberships {\n        role\n        organization {\n          id\n          name\n          plan\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiKeys($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      apiKeys {\n        id\n        name\n        prefix\n        createdAt\n        lastUsedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query ApiKeys($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      apiKeys {\n        id\n        name\n        prefix\n        createdAt\n        lastUsedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query KeyCalls(\n    $id: ID!\n    $from: String\n    $to: String\n    $endpoint: String\n    $first: Int!\n    $after: String\n  ) {\n    apiKey(id: $id) {\n      id\n      calls(from: $from, to: $to, endpoint: $endpoint, first: $first, after: $after) {\n        nodes {\n          id\n          at\n          method\n          endpoint\n          path\n          status\n          ip\n          durationMs\n          requestId\n        }\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query KeyCalls(\n    $id: ID!\n    $from: String\n    $to: String\n    $endpoint: String\n    $first: Int!\n    $after: String\n  ) {\n    apiKey(id: $id) {\n      id\n      calls(from: $from, to: $to, endpoint: $endpoint, first: $first, after: $after) {\n        nodes {\n          id\n          at\n          method\n          endpoint\n          path\n          status\n          ip\n          durationMs\n          requestId\n        }\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CreateKeyWebsites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n        domain\n      }\n    }\n  }\n"): (typeof documents)["\n  query CreateKeyWebsites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n        domain\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      key\n      apiKey {\n        id\n        name\n        prefix\n        createdAt\n        lastUsedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      key\n      apiKey {\n        id\n        name\n        prefix\n        createdAt\n        lastUsedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegenerateApiKey($id: ID!) {\n    regenerateApiKey(id: $id) {\n      key\n      apiKey {\n        id\n        prefix\n        lastUsedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RegenerateApiKey($id: ID!) {\n    regenerateApiKey(id: $id) {\n      key\n      apiKey {\n        id\n        prefix\n        lastUsedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteApiKey($id: ID!) {\n    deleteApiKey(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteApiKey($id: ID!) {\n    deleteApiKey(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query KeyDetails($id: ID!) {\n    apiKey(id: $id) {\n      id\n      name\n      description\n      prefix\n      permissions\n      websiteAccess\n      websites {\n        id\n        name\n      }\n      expiresAt\n      createdAt\n      lastUsedAt\n    }\n  }\n"): (typeof documents)["\n  query KeyDetails($id: ID!) {\n    apiKey(id: $id) {\n      id\n      name\n      description\n      prefix\n      permissions\n      websiteAccess\n      websites {\n        id\n        name\n      }\n      expiresAt\n      createdAt\n      lastUsedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query KeyUsage($id: ID!) {\n    apiKey(id: $id) {\n      id\n      usage {\n        totalRequests\n        recentActivity {\n          date\n          requests\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query KeyUsage($id: ID!) {\n    apiKey(id: $id) {\n      id\n      usage {\n        totalRequests\n        recentActivity {\n          date\n          requests\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OrganizationUsage($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      plan\n      limits {\n        requestsPerMinute\n        requestsPerMonth\n      }\n      usage {\n        month\n        requests\n        resetsAt\n        daily {\n          date\n          requests\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query OrganizationUsage($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      name\n      plan\n      limits {\n        requestsPerMinute\n        requestsPerMonth\n      }\n      usage {\n        month\n        requests\n        resetsAt\n        daily {\n          date\n          requests\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEventTypes {\n    webhookEventTypes\n  }\n"): (typeof documents)["\n  query WebhookEventTypes {\n    webhookEventTypes\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateWebhook($input: CreateWebhookInput!) {\n    createWebhook(input: $input) {\n      secret\n      webhook {\n        id\n        url\n        description\n        eventTypes\n        status\n        createdAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateWebhook($input: CreateWebhookInput!) {\n    createWebhook(input: $input) {\n      secret\n      webhook {\n        id\n        url\n        description\n        eventTypes\n        status\n        createdAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) {\n      secret\n      webhook {\n        id\n        secretRotatedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) {\n      secret\n      webhook {\n        id\n        secretRotatedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteWebhook($id: ID!) {\n    deleteWebhook(id: $id) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteWebhook($id: ID!) {\n    deleteWebhook(id: $id) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AlertWebsites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  query AlertWebsites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookAlertFields on WebhookAlerts {\n    websiteIds\n    spikeRatio\n    dropRatio\n    reportHour\n    goalEvery\n  }\n"): (typeof documents)["\n  fragment WebhookAlertFields on WebhookAlerts {\n    websiteIds\n    spikeRatio\n    dropRatio\n    reportHour\n    goalEvery\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetWebhookAlertsSettings($id: ID!, $input: WebhookAlertsInput!) {\n    setWebhookAlerts(id: $id, input: $input) {\n      id\n      alerts {\n        ...WebhookAlertFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SetWebhookAlertsSettings($id: ID!, $input: WebhookAlertsInput!) {\n    setWebhookAlerts(id: $id, input: $input) {\n      id\n      alerts {\n        ...WebhookAlertFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookDetails {\n    myWebhooks {\n      id\n      url\n      description\n      eventTypes\n      status\n      disabledReason\n      createdAt\n      secretRotatedAt\n      alerts {\n        ...WebhookAlertFields\n      }\n      deliveries(limit: 20) {\n        id\n        eventId\n        eventType\n        status\n        test\n        createdAt\n        nextAttemptAt\n        attempts {\n          attempt\n          at\n          statusCode\n          durationMs\n          error\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query WebhookDetails {\n    myWebhooks {\n      id\n      url\n      description\n      eventTypes\n      status\n      disabledReason\n      createdAt\n      secretRotatedAt\n      alerts {\n        ...WebhookAlertFields\n      }\n      deliveries(limit: 20) {\n        id\n        eventId\n        eventType\n        status\n        test\n        createdAt\n        nextAttemptAt\n        attempts {\n          attempt\n          at\n          statusCode\n          durationMs\n          error\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeliverDelivery($webhookId: ID!, $deliveryId: ID!) {\n    redeliverWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) {\n      deliveryId\n      success\n      statusCode\n      error\n    }\n  }\n"): (typeof documents)["\n  mutation RedeliverDelivery($webhookId: ID!, $deliveryId: ID!) {\n    redeliverWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) {\n      deliveryId\n      success\n      statusCode\n      error\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TestWebhook($id: ID!) {\n    testWebhook(id: $id) {\n      deliveryId\n      eventId\n      success\n      statusCode\n      responseBody\n      responseBodyTruncated\n      durationMs\n      error\n    }\n  }\n"): (typeof documents)["\n  mutation TestWebhook($id: ID!) {\n    testWebhook(id: $id) {\n      deliveryId\n      eventId\n      success\n      statusCode\n      responseBody\n      responseBodyTruncated\n      durationMs\n      error\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Webhooks {\n    myWebhooks {\n      id\n      url\n      description\n      eventTypes\n      status\n      createdAt\n    }\n  }\n"): (typeof documents)["\n  query Webhooks {\n    myWebhooks {\n      id\n      url\n      description\n      eventTypes\n      status\n      createdAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateGoal($input: CreateGoalInput!) {\n    createGoal(input: $input) {\n      id\n      name\n      kind\n      pagePath\n      eventName\n      currency\n      createdAt\n    }\n  }\n"): (typeof documents)["\n  mutation CreateGoal($input: CreateGoalInput!) {\n    createGoal(input: $input) {\n      id\n      name\n      kind\n      pagePath\n      eventName\n      currency\n      createdAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebsiteAnalytics($id: ID!, $range: AnalyticsRange!) {\n    website(id: $id) {\n      id\n      overview(range: $range) {\n        summary {\n          totalVisitors\n          uniqueVisitors\n          pageviews\n          sessions\n          bounceRate\n          avgVisitDuration\n        }\n        series {\n          date\n          visitors\n          pageviews\n        }\n      }\n      topPages: breakdown(dimension: PAGE, range: $range, limit: 10, offset: 0) {\n        rows {\n          value\n          visitors\n          pageviews\n        }\n      }\n      topCountries: breakdown(dimension: COUNTRY, range: $range, limit: 10, offset: 0) {\n        rows {\n          value\n          visitors\n          pageviews\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query WebsiteAnalytics($id: ID!, $range: AnalyticsRange!) {\n    website(id: $id) {\n      id\n      overview(range: $range) {\n        summary {\n          totalVisitors\n          uniqueVisitors\n          pageviews\n          sessions\n          bounceRate\n          avgVisitDuration\n        }\n        series {\n          date\n          visitors\n          pageviews\n        }\n      }\n      topPages: breakdown(dimension: PAGE, range: $range, limit: 10, offset: 0) {\n        rows {\n          value\n          visitors\n          pageviews\n        }\n      }\n      topCountries: breakdown(dimension: COUNTRY, range: $range, limit: 10, offset: 0) {\n        rows {\n          value\n          visitors\n          pageviews\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Website($id: ID!) {\n    website(id: $id) {\n      id\n      name\n      domain\n      trackingCode\n      organization {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  query Website($id: ID!) {\n    website(id: $id) {\n      id\n      name\n      domain\n      trackingCode\n      organization {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebsiteExplore($id: ID!, $query: StatsQuery!) {\n    website(id: $id) {\n      id\n      stats(query: $query) {\n        totalRows\n        results {\n          dimensions\n          metrics\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query WebsiteExplore($id: ID!, $query: StatsQuery!) {\n    website(id: $id) {\n      id\n      stats(query: $query) {\n        totalRows\n        results {\n          dimensions\n          metrics\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebsiteGoals($id: ID!) {\n    website(id: $id) {\n      id\n      goals {\n        id\n        name\n        kind\n        pagePath\n        eventName\n        currency\n        createdAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query WebsiteGoals($id: ID!) {\n    website(id: $id) {\n      id\n      goals {\n        id\n        name\n        kind\n        pagePath\n        eventName\n        currency\n        createdAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteGoal($websiteId: ID!, $id: ID!) {\n    deleteGoal(websiteId: $websiteId, id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteGoal($websiteId: ID!, $id: ID!) {\n    deleteGoal(websiteId: $websiteId, id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Websites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n        domain\n        trackingCode\n        createdAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query Websites($organizationId: ID!) {\n    organization(id: $organizationId) {\n      id\n      websites {\n        id\n        name\n        domain\n        trackingCode\n        createdAt\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;