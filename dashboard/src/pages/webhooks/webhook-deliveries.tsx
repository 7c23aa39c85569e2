import { DataTable, type Column } from '../../components/data-table';
import { EmptyState } from '../../components/data-state';
import { DateTime } from '../../components/date-time';
import { formatMs } from '../../format/format';
import type { WebhookDetailsQuery } from '../../gql/graphql';
import { DELIVERY_STATUS_LABELS } from './webhook-labels';
import { RedeliverButton } from './webhook-redeliver';

type Delivery = WebhookDetailsQuery['myWebhooks'][number]['deliveries'][number];
type Attempt = Delivery['attempts'][number];

const ATTEMPT_COLUMNS: Column<Attempt>[] = [
  { header: 'Attempt', numeric: true, cell: (attempt) => attempt.attempt },
  { header: 'Time', cell: (attempt) => <DateTime value={attempt.at} /> },
  { header: 'Status code', numeric: true, cell: (attempt) => attempt.statusCode ?? '—' },
  { header: 'Duration', numeric: true, cell: (attempt) => formatMs(attempt.durationMs) },
  { header: 'Error', cell: (attempt) => attempt.error ?? '—' },
];

/** The latest deliveries, each with every attempt made; a settled one can be sent again. */
export function WebhookDeliveries({
  webhookId,
  deliveries,
}: {
  webhookId: string;
  deliveries: Delivery[];
}) {
  return (
    <section aria-labelledby="webhook-deliveries-heading">
      <h2 id="webhook-deliveries-heading">Deliveries</h2>
      {deliveries.length === 0 ? (
        <EmptyState>
          <p>No deliveries yet.</p>
        </EmptyState>
      ) : (
        <ol className="deliveries">
          {deliveries.map((delivery) => (
            <li key={delivery.id} className="delivery">
              <h3>
                <code>{delivery.eventType}</code>
                {delivery.test && <span className="badge">Test</span>}
              </h3>
              <p className="delivery-meta">
                {DELIVERY_STATUS_LABELS[delivery.status]} · created{' '}
                <DateTime value={delivery.createdAt} /> · event <code>{delivery.eventId}</code>
                {delivery.nextAttemptAt && (
                  <>
                    {' '}
                    · next attempt <DateTime value={delivery.nextAttemptAt} />
                  </>
                )}
              </p>
              {delivery.status !== 'PENDING' && (
                <RedeliverButton
                  webhookId={webhookId}
                  deliveryId={delivery.id}
                  label={`${delivery.eventType} ${delivery.eventId}`}
                />
              )}
              {delivery.attempts.length === 0 ? (
                <p>No attempt yet.</p>
              ) : (
                <DataTable
                  caption={`Attempts of ${delivery.eventType} ${delivery.eventId}`}
                  captionHidden
                  columns={ATTEMPT_COLUMNS}
                  rows={delivery.attempts}
                  rowKey={(attempt) => String(attempt.attempt)}
                />
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
