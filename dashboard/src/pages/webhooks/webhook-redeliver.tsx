import { useMutation } from 'urql';
import { errorMessage } from '../../api/errors';
import { graphql } from '../../gql';

const RedeliverDocument = graphql(`
  mutation RedeliverDelivery($webhookId: ID!, $deliveryId: ID!) {
    redeliverWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) {
      deliveryId
      success
      statusCode
      error
    }
  }
`);

/**
 * "Redeliver": a settled delivery sent once more, now (same event, the current secret), and
 * what the receiver answered; the attempt joins the delivery's list.
 */
export function RedeliverButton({
  webhookId,
  deliveryId,
  label,
}: {
  webhookId: string;
  deliveryId: string;
  /** What the button redelivers, for its accessible name. */
  label: string;
}) {
  const [state, redeliver] = useMutation(RedeliverDocument);
  const outcome = state.data?.redeliverWebhookDelivery;
  return (
    <div className="redeliver">
      <button
        type="button"
        className="button"
        aria-label={`Redeliver ${label}`}
        disabled={state.fetching}
        onClick={() =>
          void redeliver({ webhookId, deliveryId }, { additionalTypenames: ['Webhook'] })
        }
      >
        Redeliver
      </button>
      <span aria-live="polite">
        {state.fetching && 'Sending…'}
        {!state.fetching && state.error && (
          <span role="alert" className="form-error">
            {errorMessage(state.error)}
          </span>
        )}
        {!state.fetching && outcome && (
          <span className={outcome.success ? 'status status-good' : 'status status-bad'}>
            {outcome.success ? 'Redelivered' : 'Failed again'}:{' '}
            {outcome.statusCode ?? outcome.error ?? 'no answer'}
          </span>
        )}
      </span>
    </div>
  );
}
