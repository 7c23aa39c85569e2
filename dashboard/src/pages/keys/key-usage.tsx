import { useQuery } from 'urql';
import { ChartFigure } from '../../components/charts/chart-figure';
import { QueryState } from '../../components/data-state';
import { formatNumber, formatUtcDay } from '../../format/format';
import { graphql } from '../../gql';

const KeyUsageDocument = graphql(`
  query KeyUsage($id: ID!) {
    apiKey(id: $id) {
      id
      usage {
        totalRequests
        recentActivity {
          date
          requests
        }
      }
    }
  }
`);

export function KeyUsage({ keyId }: { keyId: string }) {
  const [result, reexecute] = useQuery({
    query: KeyUsageDocument,
    variables: { id: keyId },
    requestPolicy: 'cache-and-network',
  });
  return (
    <section aria-labelledby="key-usage-heading">
      <h2 id="key-usage-heading">Usage</h2>
      <QueryState result={result} what="the usage statistics" reexecute={reexecute}>
        {(data) => {
          const usage = data.apiKey?.usage;
          if (!usage) return null;
          return (
            <>
              <dl className="stats">
                <div>
                  <dt>Total requests</dt>
                  <dd data-testid="total-requests">{formatNumber(usage.totalRequests)}</dd>
                </div>
              </dl>
              <ChartFigure
                kind="bar"
                title="Requests per day, last 30 days (UTC)"
                labels={usage.recentActivity.map((day) => formatUtcDay(day.date))}
                series={[
                  { label: 'Requests', values: usage.recentActivity.map((day) => day.requests) },
                ]}
              />
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
