/** Request and response bodies of the analytics routes. */
import { z } from 'zod';
import { MAX_QUERY_LIMIT } from '../../../common/contracts/stats-query';
import { MAX_LIMIT, RANGE_VALUES, type RestRange } from './query-parameters';

const RANGES = Object.keys(RANGE_VALUES) as [RestRange, ...RestRange[]];
const count = () => z.number().int().min(0);
const described = <T extends z.ZodType>(schema: T, description: string) =>
  schema.meta({ description });
const dateTime = () => z.iso.datetime();
const nullableString = () => z.string().nullable();

export const PaginationSchema = z
  .strictObject({
    limit: z.number().int().min(1).max(MAX_LIMIT),
    offset: count(),
    has_more: z.boolean(),
  })
  .meta({ id: 'Pagination' });

const QueryPaginationSchema = z
  .strictObject({
    limit: z.number().int().min(1).max(MAX_QUERY_LIMIT),
    offset: count(),
    has_more: z.boolean(),
  })
  .meta({ id: 'QueryPagination' });

const list = <K extends string>(name: K, item: z.ZodType) =>
  z.strictObject({ [name]: z.array(item), pagination: PaginationSchema } as Record<
    K | 'pagination',
    z.ZodType
  >);

const AnalyticsSummarySchema = z
  .strictObject({
    total_visitors: described(count(), 'Visits (sessions) in the range'),
    pageviews: count(),
    unique_visitors: described(
      count(),
      'Distinct visitor ids. They rotate at 00:00 UTC (privacy), so a person counts once per UTC day: over several days once per day, and over 24h twice if active on both sides of midnight.',
    ),
    sessions: count(),
    bounce_rate: described(z.number().min(0).max(1), 'Share of sessions with one page view'),
    avg_visit_duration: described(z.number().min(0), 'Seconds per session'),
  })
  .meta({ id: 'AnalyticsSummary' });

const DailyStatSchema = z
  .strictObject({
    date: described(dateTime(), 'Start of the bucket (UTC): a day, or an hour for range=24h'),
    pageviews: count(),
    visitors: count(),
    sessions: count(),
    bounces: count(),
  })
  .meta({ id: 'DailyStat' });

export const AnalyticsOverviewSchema = z
  .strictObject({
    website_id: z.string(),
    range: z.enum(RANGES),
    granularity: z.enum(['hour', 'day']),
    from: dateTime(),
    to: described(dateTime(), 'End of the last bucket (exclusive)'),
    summary: AnalyticsSummarySchema,
    daily_stats: described(
      z.array(DailyStatSchema),
      'One zero-filled entry per bucket, oldest first: 24 hours for 24h, else 7, 30, 90 or 365 days',
    ),
  })
  .meta({ id: 'AnalyticsOverview' });

const VisitorSchema = z
  .strictObject({
    id: z.string(),
    country: described(nullableString(), 'ISO 3166-1 alpha-2, null when unknown'),
    device: z.enum(['desktop', 'mobile', 'tablet', 'other']).nullable(),
    browser: nullableString(),
    os: nullableString(),
    first_seen: dateTime(),
    last_seen: described(
      dateTime(),
      'Latest event of any kind (page view, click, custom event, error, replay chunk); the range filter uses it.',
    ),
    pageviews: count(),
    sessions: count(),
    entry_page: nullableString(),
    last_page: nullableString(),
  })
  .meta({ id: 'Visitor' });

export const VisitorListSchema = list('visitors', VisitorSchema).meta({ id: 'VisitorList' });

/** A breakdown row, named after what its value is (`country`, `path`, `source`). */
const breakdownRow = (valueName: string, description: string) =>
  z.strictObject({
    [valueName]: described(z.string(), description),
    visitors: described(count(), 'Distinct visitors per bucket, summed'),
    pageviews: count(),
    sessions: described(count(), 'Visits that started with this value (entry page for pages)'),
    bounce_rate: z.number().min(0).max(1),
    avg_visit_duration: described(z.number().min(0), 'Seconds'),
  });

export const CountryListSchema = list(
  'countries',
  breakdownRow('country', 'ISO 3166-1 alpha-2, or "unknown"'),
).meta({ id: 'CountryList' });
export const PageListSchema = list(
  'pages',
  breakdownRow('path', 'Page path without query string'),
).meta({ id: 'PageList' });
export const SourceListSchema = list(
  'sources',
  breakdownRow('source', 'utm_source, else the referrer host; "direct" when none or internal'),
).meta({ id: 'SourceList' });

const TechnologyRowSchema = z
  .strictObject({ value: z.string(), visitors: count(), pageviews: count(), sessions: count() })
  .meta({ id: 'TechnologyRow' });

export const TechnologySchema = z
  .strictObject({
    devices: described(z.array(TechnologyRowSchema), 'desktop, mobile, tablet, other'),
    browsers: z.array(TechnologyRowSchema),
    operating_systems: z.array(TechnologyRowSchema),
  })
  .meta({ id: 'Technology' });

const HeatmapPageSchema = z
  .strictObject({
    path: z.string(),
    clicks: count(),
    visitors: count(),
    cells: described(
      z.array(z.strictObject({ x: z.number().int().min(0).max(99), y: count(), clicks: count() })),
      'Busiest cells first (at most 100): x = whole percent of the viewport width (0–99), y = 50px band of the document from the top (band 400 collects every click below 20,000 px)',
    ),
  })
  .meta({ id: 'HeatmapPage' });
export const HeatmapPageListSchema = list('pages', HeatmapPageSchema).meta({
  id: 'HeatmapPageList',
});

const ReplaySessionSchema = z
  .strictObject({
    id: described(z.string(), 'Session id chosen by the recorder'),
    visitor_id: z.string(),
    started_at: dateTime(),
    last_activity: dateTime(),
    chunks: count(),
    bytes: count(),
    entry_page: z.string(),
    country: nullableString(),
    device: nullableString(),
    browser: nullableString(),
    os: nullableString(),
  })
  .meta({ id: 'ReplaySession' });
export const ReplaySessionListSchema = list('sessions', ReplaySessionSchema).meta({
  id: 'ReplaySessionList',
});

const ErrorGroupSchema = z
  .strictObject({
    fingerprint: described(z.string(), 'Hash of the message and the first stack frame'),
    message: z.string(),
    stack: nullableString(),
    occurrences: described(count(), 'In the range'),
    affected_visitors: described(count(), 'In the range (distinct per day, summed)'),
    total_occurrences: described(count(), 'Ever'),
    first_seen: dateTime(),
    last_seen: dateTime(),
    last_page: nullableString(),
  })
  .meta({ id: 'ErrorGroup' });
export const ErrorGroupListSchema = list('groups', ErrorGroupSchema).meta({
  id: 'ErrorGroupList',
});

const metricValues = z
  .array(z.number().nullable())
  .meta({ description: 'In the order of metrics; revenue is null where no event carried any.' });

export const QueryResultSchema = z
  .strictObject({
    metrics: z.array(z.string()),
    dimensions: z.array(z.string()),
    results: z.array(
      z.strictObject({
        dimensions: z.array(z.string()),
        metrics: metricValues,
        comparison: z
          .strictObject({
            dimensions: z.array(z.string()),
            metrics: metricValues,
            change: z.array(z.number().nullable()).meta({
              description:
                'Relative change of each metric, (now − before) ÷ before; null when before is 0.',
            }),
          })
          .optional()
          .meta({ description: 'With include.comparisons: the same row over the other period.' }),
      }),
    ),
    pagination: QueryPaginationSchema,
    date_range: z.strictObject({ from: dateTime(), to: described(dateTime(), 'Exclusive') }),
    meta: z
      .strictObject({
        total_rows: count().optional(),
        time_labels: z.array(z.string()).optional(),
        comparison_date_range: z
          .strictObject({ from: dateTime(), to: described(dateTime(), 'Exclusive') })
          .optional(),
      })
      .optional()
      .meta({ description: 'What include asked for.' }),
  })
  .meta({ id: 'QueryResult' });
