import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../../common/platform/subgraph-server';
import type { IngestService } from './services/ingest.service';
import type { RetentionService } from './services/retention.service';
import type { StatsService } from './services/stats.service';
import type { StatsQueryService } from './services/stats-query.service';
import type { WebsiteAlertsService } from './services/website-alerts.service';
import type { GoalAlertsService } from './services/goal-alerts.service';
import type { TotalsService } from './services/totals.service';

export interface AnalyticsDeps {
  totals: TotalsService;
  stats: StatsService;
  /** POST /query's event-level answers (the engine). */
  statsQuery: StatsQueryService;
  alerts: WebsiteAlertsService;
  goalAlerts: GoalAlertsService;
  ingest: IngestService;
  retention: RetentionService;
}

export interface AnalyticsLoaders {
  pageviews: DataLoader<string, number>;
  [name: string]: unknown;
}

export type AnalyticsContext = SubgraphContext<AnalyticsDeps> & { loaders: AnalyticsLoaders };

export function createAnalyticsLoaders(deps: AnalyticsDeps): AnalyticsLoaders {
  return { pageviews: new DataLoader((ids) => deps.totals.pageviewsOf(ids)) };
}
