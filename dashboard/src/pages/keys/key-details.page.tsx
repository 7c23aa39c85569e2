import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { QueryState } from '../../components/data-state';
import { DateTime } from '../../components/date-time';
import { graphql } from '../../gql';
import type { KeyDetailsQuery } from '../../gql/graphql';
import { useDocumentTitle } from '../../layout/use-document-title';
import { CallLog } from './call-log';
import { KeyActions } from './key-actions';
import { permissionLabel, WEBSITE_ACCESS_LABELS } from './key-options';
import { KeyUsage } from './key-usage';

const KeyDetailsDocument = graphql(`
  query KeyDetails($id: ID!) {
    apiKey(id: $id) {
      id
      name
      description
      prefix
      permissions
      websiteAccess
      websites {
        id
        name
      }
      expiresAt
      createdAt
      lastUsedAt
    }
  }
`);

type ApiKey = NonNullable<KeyDetailsQuery['apiKey']>;

export function KeyDetailsPage() {
  const { id = '' } = useParams();
  const [result, reexecute] = useQuery({ query: KeyDetailsDocument, variables: { id } });
  useDocumentTitle(result.data?.apiKey ? `${result.data.apiKey.name} · API Keys` : 'API key');

  return (
    <>
      <p className="breadcrumb">
        <Link to="/keys">API Keys</Link>
      </p>
      <QueryState result={result} what="the API key" reexecute={reexecute}>
        {(data) =>
          data.apiKey ? (
            <KeyDetails apiKey={data.apiKey} />
          ) : (
            <>
              <h1>API key not found</h1>
              <p>It may have been deleted, or it belongs to an organization you cannot see.</p>
            </>
          )
        }
      </QueryState>
    </>
  );
}

function KeyDetails({ apiKey }: { apiKey: ApiKey }) {
  return (
    <>
      <div className="page-header">
        <h1>{apiKey.name}</h1>
        <KeyActions keyId={apiKey.id} />
      </div>
      <section aria-labelledby="key-details-heading">
        <h2 id="key-details-heading">Details</h2>
        <dl className="facts">
          <dt>Description</dt>
          <dd>{apiKey.description || 'None'}</dd>
          <dt>Prefix</dt>
          <dd>
            <code>{apiKey.prefix}…</code>
          </dd>
          <dt>Permissions</dt>
          <dd>
            {apiKey.permissions.length === 0
              ? 'None'
              : apiKey.permissions.map(permissionLabel).join(', ')}
          </dd>
          <dt>Website access</dt>
          <dd>
            {WEBSITE_ACCESS_LABELS[apiKey.websiteAccess]}
            {apiKey.websiteAccess === 'SELECTED' &&
              `: ${apiKey.websites.map((w) => w.name).join(', ') || 'none'}`}
          </dd>
          <dt>Expires</dt>
          <dd>
            <Expiry expiresAt={apiKey.expiresAt} />
          </dd>
          <dt>Created</dt>
          <dd>
            <DateTime value={apiKey.createdAt} />
          </dd>
          <dt>Last used</dt>
          <dd>
            <DateTime value={apiKey.lastUsedAt} fallback="Never" />
          </dd>
        </dl>
      </section>
      <KeyUsage keyId={apiKey.id} />
      <CallLog keyId={apiKey.id} />
    </>
  );
}

function Expiry({ expiresAt }: { expiresAt: string | null | undefined }) {
  const [now] = useState(Date.now);
  if (!expiresAt) return <>Never</>;
  const expired = new Date(expiresAt).getTime() <= now;
  return (
    <>
      {expired && <strong className="status status-bad">Expired </strong>}
      <DateTime value={expiresAt} />
    </>
  );
}
