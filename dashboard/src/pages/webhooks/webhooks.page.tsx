import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState, QueryState } from '../../components/data-state';
import { DateTime } from '../../components/date-time';
import { graphql } from '../../gql';
import type { WebhooksQuery } from '../../gql/graphql';
import { useDocumentTitle } from '../../layout/use-document-title';
import { CreateWebhookDialog } from './create-webhook-dialog';
import { eventsLabel, WEBHOOK_STATUS_LABELS } from './webhook-labels';

const WebhooksDocument = graphql(`
  query Webhooks {
    myWebhooks {
      id
      url
      description
      eventTypes
      status
      createdAt
    }
  }
`);

const LIST_CONTEXT = { additionalTypenames: ['Webhook'] };

type WebhookRow = WebhooksQuery['myWebhooks'][number];

const COLUMNS: Column<WebhookRow>[] = [
  {
    header: 'URL',
    cell: (webhook) => (
      <Link to={`/webhooks/${webhook.id}`} className="url">
        {webhook.url}
      </Link>
    ),
  },
  { header: 'Description', cell: (webhook) => webhook.description || '—' },
  { header: 'Events', cell: (webhook) => eventsLabel(webhook.eventTypes) },
  { header: 'Status', cell: (webhook) => WEBHOOK_STATUS_LABELS[webhook.status] },
  { header: 'Created', cell: (webhook) => <DateTime value={webhook.createdAt} /> },
];

export function WebhooksPage() {
  useDocumentTitle('Webhooks');
  const [creating, setCreating] = useState(false);
  const [result, reexecute] = useQuery({ query: WebhooksDocument, context: LIST_CONTEXT });

  return (
    <>
      <div className="page-header">
        <h1>Webhooks</h1>
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          Create webhook
        </button>
      </div>
      <p className="lead">
        Webhooks send platform events to your URL as signed HTTP requests. They are yours: other
        members of your organizations do not see them.
      </p>
      <QueryState result={result} what="webhooks" reexecute={reexecute}>
        {(data) =>
          data.myWebhooks.length === 0 ? (
            <EmptyState>
              <p>No webhooks yet. Create one to receive events at your URL.</p>
            </EmptyState>
          ) : (
            <DataTable
              caption="Webhooks"
              captionHidden
              columns={COLUMNS}
              rows={data.myWebhooks}
              rowKey={(webhook) => webhook.id}
            />
          )
        }
      </QueryState>
      <CreateWebhookDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
