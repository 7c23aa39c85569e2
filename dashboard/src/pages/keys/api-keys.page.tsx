import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { useOrganization } from '../../auth/session';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState, QueryState } from '../../components/data-state';
import { DateTime } from '../../components/date-time';
import { graphql } from '../../gql';
import type { ApiKeysQuery } from '../../gql/graphql';
import { useDocumentTitle } from '../../layout/use-document-title';
import { CreateKeyDialog } from './create-key-dialog';

const ApiKeysDocument = graphql(`
  query ApiKeys($organizationId: ID!) {
    organization(id: $organizationId) {
      id
      apiKeys {
        id
        name
        prefix
        createdAt
        lastUsedAt
      }
    }
  }
`);

// An empty list names no ApiKey, so say which mutations must refresh it.
const LIST_CONTEXT = { additionalTypenames: ['ApiKey'] };

type KeyRow = NonNullable<ApiKeysQuery['organization']>['apiKeys'][number];

const COLUMNS: Column<KeyRow>[] = [
  { header: 'Name', cell: (key) => <Link to={`/keys/${key.id}`}>{key.name}</Link> },
  { header: 'Prefix', cell: (key) => <code>{key.prefix}…</code> },
  { header: 'Created', cell: (key) => <DateTime value={key.createdAt} /> },
  { header: 'Last used', cell: (key) => <DateTime value={key.lastUsedAt} fallback="Never" /> },
];

export function ApiKeysPage() {
  useDocumentTitle('API Keys');
  const organization = useOrganization();
  const [creating, setCreating] = useState(false);
  const [result, reexecute] = useQuery({
    query: ApiKeysDocument,
    variables: { organizationId: organization.id },
    context: LIST_CONTEXT,
  });

  return (
    <>
      <div className="page-header">
        <h1>API Keys</h1>
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          Create API key
        </button>
      </div>
      <p className="lead">
        Keys let your programs call the External API for {organization.name}. Send a key in the{' '}
        <code>X-API-Key</code> header.
      </p>
      {organization.plan === 'FREE' && (
        <p className="notice notice-warning">
          The External API is part of the Pro, Scale and Enterprise plans: keys of an organization
          on the Free plan are refused.
        </p>
      )}
      <QueryState result={result} what="API keys" reexecute={reexecute}>
        {(data) => {
          const keys = data.organization?.apiKeys ?? [];
          if (keys.length === 0) {
            return (
              <EmptyState>
                <p>No API keys yet. Create one to call the External API.</p>
              </EmptyState>
            );
          }
          return (
            <DataTable
              caption="API keys"
              captionHidden
              columns={COLUMNS}
              rows={keys}
              rowKey={(key) => key.id}
            />
          );
        }}
      </QueryState>
      <CreateKeyDialog
        open={creating}
        organizationId={organization.id}
        onClose={() => setCreating(false)}
      />
    </>
  );
}
