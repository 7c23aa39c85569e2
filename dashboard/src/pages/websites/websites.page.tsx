import { Link } from 'react-router';
import { useQuery } from 'urql';
import { useOrganization } from '../../auth/session';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState, QueryState } from '../../components/data-state';
import { DateTime } from '../../components/date-time';
import { graphql } from '../../gql';
import type { WebsitesQuery } from '../../gql/graphql';
import { useDocumentTitle } from '../../layout/use-document-title';
import { TrackerSnippet } from './tracker-snippet';

const WebsitesDocument = graphql(`
  query Websites($organizationId: ID!) {
    organization(id: $organizationId) {
      id
      websites {
        id
        name
        domain
        trackingCode
        createdAt
      }
    }
  }
`);

type Website = NonNullable<WebsitesQuery['organization']>['websites'][number];

const COLUMNS: Column<Website>[] = [
  { header: 'Name', cell: (site) => <Link to={`/websites/${site.id}`}>{site.name}</Link> },
  { header: 'Domain', cell: (site) => site.domain },
  { header: 'Tracking code', cell: (site) => <code>{site.trackingCode}</code> },
  { header: 'Created', cell: (site) => <DateTime value={site.createdAt} dateOnly /> },
];

export function WebsitesPage() {
  useDocumentTitle('Websites');
  const organization = useOrganization();
  const [result, reexecute] = useQuery({
    query: WebsitesDocument,
    variables: { organizationId: organization.id },
  });

  return (
    <>
      <h1>Websites</h1>
      <QueryState result={result} what="websites" reexecute={reexecute}>
        {(data) => {
          const websites = data.organization?.websites ?? [];
          if (websites.length === 0) {
            return (
              <EmptyState>
                <p>No websites yet.</p>
              </EmptyState>
            );
          }
          return (
            <>
              <DataTable
                caption="Websites"
                captionHidden
                columns={COLUMNS}
                rows={websites}
                rowKey={(site) => site.id}
              />
              <section aria-labelledby="snippets-heading">
                <h2 id="snippets-heading">Tracking snippets</h2>
                <p>
                  Paste a website&apos;s snippet into the <code>&lt;head&gt;</code> of every page to
                  record its traffic.
                </p>
                {websites.map((site) => (
                  <TrackerSnippet
                    key={site.id}
                    title={site.name}
                    trackingCode={site.trackingCode}
                  />
                ))}
              </section>
            </>
          );
        }}
      </QueryState>
    </>
  );
}
