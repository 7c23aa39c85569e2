import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { ChartFigure } from '../../components/charts/chart-figure';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState, QueryState } from '../../components/data-state';
import { formatDuration, formatNumber, formatPercent, formatUtcDay } from '../../format/format';
import { graphql } from '../../gql';
import type { WebsiteAnalyticsQuery } from '../../gql/graphql';
import { rangeOf } from './analytics-ranges';

const WebsiteAnalyticsDocument = graphql(`
  query WebsiteAnalytics($id: ID!, $range: AnalyticsRange!) {
    website(id: $id) {
      id
      overview(range: $range) {
        summary {
          totalVisitors
          uniqueVisitors
          pageviews
          sessions
          bounceRate
          avgVisitDuration
        }
        series {
          date
          visitors
          pageviews
        }
      }
      topPages: breakdown(dimension: PAGE, range: $range, limit: 10, offset: 0) {
        rows {
          value
          visitors
          pageviews
        }
      }
      topCountries: breakdown(dimension: COUNTRY, range: $range, limit: 10, offset: 0) {
        rows {
          value
          visitors
          pageviews
        }
      }
    }
  }
`);

type Analytics = NonNullable<WebsiteAnalyticsQuery['website']>;
type Row = Analytics['topPages']['rows'][number];

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' });
  } catch {
    return null;
  }
})();

function countryName(code: string): string {
  try {
    return regionNames?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

const figureColumns = (header: string, label: (value: string) => string): Column<Row>[] => [
  { header, cell: (row) => label(row.value) },
  { header: 'Visitors', numeric: true, cell: (row) => formatNumber(row.visitors) },
  { header: 'Page views', numeric: true, cell: (row) => formatNumber(row.pageviews) },
];

const PAGE_COLUMNS = figureColumns('Page', (path) => path);
const COUNTRY_COLUMNS = figureColumns('Country', countryName);

/** Totals, visitors and page views by day, top pages and top countries for the URL's range. */
export function WebsiteAnalytics({ websiteId }: { websiteId: string }) {
  const [params] = useSearchParams();
  const range = rangeOf(params.get('range'));
  const [result, reexecute] = useQuery({
    query: WebsiteAnalyticsDocument,
    variables: { id: websiteId, range: range.value },
  });

  return (
    <QueryState result={result} what="the analytics" reexecute={reexecute}>
      {(data) =>
        data.website ? <AnalyticsView analytics={data.website} period={range.label} /> : null
      }
    </QueryState>
  );
}

function AnalyticsView({ analytics, period }: { analytics: Analytics; period: string }) {
  const { summary, series } = analytics.overview;
  return (
    <>
      <section aria-labelledby="totals-heading">
        <h2 id="totals-heading">Totals, {period.toLowerCase()}</h2>
        <dl className="stats">
          <Stat label="Visitors" value={formatNumber(summary.totalVisitors)} />
          <Stat label="Unique visitors" value={formatNumber(summary.uniqueVisitors)} />
          <Stat
            label="Page views"
            value={formatNumber(summary.pageviews)}
            testId="total-pageviews"
          />
          <Stat label="Sessions" value={formatNumber(summary.sessions)} />
          <Stat label="Bounce rate" value={formatPercent(summary.bounceRate)} />
          <Stat label="Average visit" value={formatDuration(summary.avgVisitDuration)} />
        </dl>
        <ChartFigure
          kind="line"
          title="Visitors and page views per day (UTC)"
          labels={series.map((bucket) => formatUtcDay(bucket.date))}
          series={[
            { label: 'Visitors', values: series.map((bucket) => bucket.visitors) },
            { label: 'Page views', values: series.map((bucket) => bucket.pageviews) },
          ]}
        />
      </section>
      <div className="columns">
        <Breakdown title="Top pages" rows={analytics.topPages.rows} columns={PAGE_COLUMNS} />
        <Breakdown
          title="Top countries"
          rows={analytics.topCountries.rows}
          columns={COUNTRY_COLUMNS}
        />
      </div>
    </>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function Breakdown({
  title,
  rows,
  columns,
}: {
  title: string;
  rows: Row[];
  columns: Column<Row>[];
}) {
  const headingId = `${title.replace(/\s+/g, '-').toLowerCase()}-heading`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {rows.length === 0 ? (
        <EmptyState>
          <p>No data for this period.</p>
        </EmptyState>
      ) : (
        <DataTable
          caption={`${title}, most visitors first`}
          captionHidden
          columns={columns}
          rows={rows}
          rowKey={(row) => row.value}
        />
      )}
    </section>
  );
}
