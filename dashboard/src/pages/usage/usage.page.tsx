import { useId } from 'react';
import { useQuery } from 'urql';
import { useOrganization } from '../../auth/session';
import { ChartFigure } from '../../components/charts/chart-figure';
import { QueryState } from '../../components/data-state';
import { DateTime } from '../../components/date-time';
import { formatNumber, formatPercent, formatUtcDay } from '../../format/format';
import { planName } from '../../format/plan';
import { graphql } from '../../gql';
import type { OrganizationUsageQuery } from '../../gql/graphql';
import { useDocumentTitle } from '../../layout/use-document-title';

const OrganizationUsageDocument = graphql(`
  query OrganizationUsage($organizationId: ID!) {
    organization(id: $organizationId) {
      id
      name
      plan
      limits {
        requestsPerMinute
        requestsPerMonth
      }
      usage {
        month
        requests
        resetsAt
        daily {
          date
          requests
        }
      }
    }
  }
`);

type OrganizationUsage = NonNullable<OrganizationUsageQuery['organization']>;

export function UsagePage() {
  useDocumentTitle('Usage');
  const organization = useOrganization();
  const [result, reexecute] = useQuery({
    query: OrganizationUsageDocument,
    variables: { organizationId: organization.id },
    requestPolicy: 'cache-and-network',
  });

  return (
    <>
      <h1>Usage</h1>
      <p className="lead">External API requests made with the keys of {organization.name}.</p>
      <QueryState result={result} what="usage" reexecute={reexecute}>
        {(data) => (data.organization ? <Usage organization={data.organization} /> : null)}
      </QueryState>
    </>
  );
}

function Usage({ organization }: { organization: OrganizationUsage }) {
  const progressId = useId();
  const { limits, usage } = organization;
  const used = limits.requestsPerMonth > 0 ? usage.requests / limits.requestsPerMonth : 0;
  return (
    <>
      <section aria-labelledby="plan-heading">
        <h2 id="plan-heading">Plan</h2>
        <dl className="stats">
          <div>
            <dt>Plan</dt>
            <dd>{planName(organization.plan)}</dd>
          </div>
          <div>
            <dt>Rate limit</dt>
            <dd>{formatNumber(limits.requestsPerMinute)} requests per minute</dd>
          </div>
          <div>
            <dt>Monthly quota</dt>
            <dd>{formatNumber(limits.requestsPerMonth)} requests</dd>
          </div>
        </dl>
        {organization.plan === 'FREE' && (
          <p className="notice notice-warning">
            The Free plan does not include the External API: its keys are refused.
          </p>
        )}
      </section>
      <section aria-labelledby="month-heading">
        <h2 id="month-heading">This month</h2>
        <p className="usage-figure">
          <strong data-testid="month-requests">{formatNumber(usage.requests)}</strong> of{' '}
          {formatNumber(limits.requestsPerMonth)} requests ({formatPercent(used)})
        </p>
        <label htmlFor={progressId} className="progress-label">
          Monthly quota used
        </label>
        <progress
          id={progressId}
          className={used >= 0.9 ? 'progress progress-high' : 'progress'}
          max={limits.requestsPerMonth}
          value={Math.min(usage.requests, limits.requestsPerMonth)}
        >
          {formatPercent(used)}
        </progress>
        <p>
          The count starts again on <DateTime value={usage.resetsAt} />.
        </p>
        <ChartFigure
          kind="bar"
          title="Requests per day this month (UTC)"
          labels={usage.daily.map((day) => formatUtcDay(day.date))}
          series={[{ label: 'Requests', values: usage.daily.map((day) => day.requests) }]}
        />
      </section>
    </>
  );
}
