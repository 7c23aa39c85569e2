import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { QueryState } from '../../components/data-state';
import { DateTime } from '../../components/date-time';
import { graphql } from '../../gql';
import type { WebhookDetailsQuery } from '../../gql/graphql';
import { useDocumentTitle } from '../../layout/use-document-title';
import { WebhookActions } from './webhook-actions';
import { WebhookAlertsForm } from './webhook-alerts';
import { WebhookDeliveries } from './webhook-deliveries';
import { eventsLabel, WEBHOOK_STATUS_LABELS } from './webhook-labels';

// There is no Query.webhook(id): the caller's webhooks are few, so pick it from the list.
const WebhookDetailsDocument = graphql(`
  query WebhookDetails {
    myWebhooks {
      id
      url
      description
      eventTypes
      status
      disabledReason
      createdAt
      secretRotatedAt
      alerts {
        ...WebhookAlertFields
      }
      deliveries(limit: 20) {
        id
        eventId
        eventType
        status
        test
        createdAt
        nextAttemptAt
        attempts {
          attempt
          at
          statusCode
          durationMs
          error
        }
      }
    }
  }
`);

type Webhook = WebhookDetailsQuery['myWebhooks'][number];

export function WebhookDetailsPage() {
  const { id = '' } = useParams();
  const [result, reexecute] = useQuery({
    query: WebhookDetailsDocument,
    requestPolicy: 'cache-and-network',
  });
  const webhook = result.data?.myWebhooks.find((w) => w.id === id);
  useDocumentTitle(webhook ? `${webhook.url} · Webhooks` : 'Webhook');

  return (
    <>
      <p className="breadcrumb">
        <Link to="/webhooks">Webhooks</Link>
      </p>
      <QueryState result={result} what="the webhook" reexecute={reexecute}>
        {() =>
          webhook ? (
            <WebhookDetails webhook={webhook} />
          ) : (
            <>
              <h1>Webhook not found</h1>
              <p>It may have been deleted, or it belongs to someone else.</p>
            </>
          )
        }
      </QueryState>
    </>
  );
}

function WebhookDetails({ webhook }: { webhook: Webhook }) {
  return (
    <>
      <div className="page-header">
        <h1 className="url">{webhook.url}</h1>
      </div>
      <WebhookActions webhookId={webhook.id} active={webhook.status !== 'REVOKED'} />
      <section aria-labelledby="webhook-details-heading">
        <h2 id="webhook-details-heading">Details</h2>
        <dl className="facts">
          <dt>Description</dt>
          <dd>{webhook.description || 'None'}</dd>
          <dt>Events</dt>
          <dd>{eventsLabel(webhook.eventTypes)}</dd>
          <dt>Status</dt>
          <dd>
            {WEBHOOK_STATUS_LABELS[webhook.status]}
            {webhook.disabledReason && `: ${webhook.disabledReason}`}
          </dd>
          <dt>Created</dt>
          <dd>
            <DateTime value={webhook.createdAt} />
          </dd>
          <dt>Secret rotated</dt>
          <dd>
            <DateTime value={webhook.secretRotatedAt} fallback="Never" />
          </dd>
        </dl>
      </section>
      {webhook.status !== 'REVOKED' && (
        <WebhookAlertsForm webhookId={webhook.id} alerts={webhook.alerts} />
      )}
      <WebhookDeliveries webhookId={webhook.id} deliveries={webhook.deliveries} />
    </>
  );
}
