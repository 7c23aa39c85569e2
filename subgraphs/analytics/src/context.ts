import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../../common/platform/subgraph-server';
import type { IngestService } from './services/ingest.service';
import type { QueryService } from './services/query.service';
import type { RetentionService } from './services/retention.service';
import type { StatsService } from './services/stats.service';
import type { TotalsService } from './services/totals.service';

export interface AnalyticsDeps {
  totals: TotalsService;
  stats: StatsService;
  query: QueryService;
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
