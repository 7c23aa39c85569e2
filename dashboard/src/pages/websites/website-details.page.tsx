import { useId } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { QueryState } from '../../components/data-state';
import { graphql } from '../../gql';
import { useDocumentTitle } from '../../layout/use-document-title';
import { RANGES, rangeOf } from './analytics-ranges';
import { TrackerSnippet } from './tracker-snippet';
import { WebsiteAnalytics } from './website-analytics';
import { WebsiteExplore } from './website-explore';
import { WebsiteGoals } from './website-goals';

const WebsiteDocument = graphql(`
  query Website($id: ID!) {
    website(id: $id) {
      id
      name
      domain
      trackingCode
      organization {
        id
      }
    }
  }
`);

export function WebsiteDetailsPage() {
  const { id = '' } = useParams();
  const [result, reexecute] = useQuery({ query: WebsiteDocument, variables: { id } });
  useDocumentTitle(result.data?.website ? `${result.data.website.name} · Websites` : 'Website');

  return (
    <>
      <p className="breadcrumb">
        <Link to="/websites">Websites</Link>
      </p>
      <QueryState result={result} what="the website" reexecute={reexecute}>
        {(data) =>
          data.website ? (
            <>
              <div className="page-header">
                <h1>{data.website.name}</h1>
                <RangeSelect />
              </div>
              <p className="lead">{data.website.domain}</p>
              <WebsiteAnalytics websiteId={data.website.id} />
              <WebsiteExplore websiteId={data.website.id} />
              <WebsiteGoals
                websiteId={data.website.id}
                organizationId={data.website.organization.id}
              />
              <TrackerSnippet
                title="Tracking snippet"
                headingLevel={2}
                trackingCode={data.website.trackingCode}
              />
            </>
          ) : (
            <>
              <h1>Website not found</h1>
              <p>It may have been removed, or it belongs to an organization you cannot see.</p>
            </>
          )
        }
      </QueryState>
    </>
  );
}

/**
 * The range lives in the URL (`?range=7d`), so a reload or a shared link keeps it, beside the
 * Explore section's question.
 */
function RangeSelect() {
  const [params, setParams] = useSearchParams();
  const selectId = useId();
  return (
    <div className="field field-inline">
      <label htmlFor={selectId}>Range</label>
      <select
        id={selectId}
        value={rangeOf(params.get('range')).param}
        onChange={(event) => {
          const next = new URLSearchParams(params);
          next.set('range', event.target.value);
          setParams(next, { replace: true });
        }}
      >
        {RANGES.map((range) => (
          <option key={range.param} value={range.param}>
            {range.label}
          </option>
        ))}
      </select>
    </div>
  );
}
