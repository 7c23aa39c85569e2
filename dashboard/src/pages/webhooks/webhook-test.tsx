import { useMutation } from 'urql';
import { errorMessage } from '../../api/errors';
import { formatMs } from '../../format/format';
import { graphql } from '../../gql';

const TestWebhookDocument = graphql(`
  mutation TestWebhook($id: ID!) {
    testWebhook(id: $id) {
      deliveryId
      eventId
      success
      statusCode
      responseBody
      responseBodyTruncated
      durationMs
      error
    }
  }
`);

/** "Send test": a synthetic event now, and what the receiver answered. */
export function WebhookTest({ webhookId }: { webhookId: string }) {
  const [test, sendTest] = useMutation(TestWebhookDocument);
  const outcome = test.data?.testWebhook;

  return (
    <section aria-labelledby="webhook-test-heading" className="panel">
      <h2 id="webhook-test-heading">Test delivery</h2>
      <p>Sends a synthetic webhook.test event now and shows what your receiver answered.</p>
      <button
        type="button"
        className="button"
        disabled={test.fetching}
        // The test adds a delivery: refresh the list below.
        onClick={() => void sendTest({ id: webhookId }, { additionalTypenames: ['Webhook'] })}
      >
        Send test
      </button>
      <div aria-live="polite" aria-busy={test.fetching}>
        {test.fetching && <p>Sending…</p>}
        {!test.fetching && test.error && (
          <p role="alert" className="form-error">
            {errorMessage(test.error)}
          </p>
        )}
        {!test.fetching && outcome && (
          <div data-testid="webhook-test-result" className="test-result">
            <p className={outcome.success ? 'status status-good' : 'status status-bad'}>
              {outcome.success ? 'Success' : 'Failure'}
            </p>
            <dl className="facts">
              <dt>Status code</dt>
              <dd>{outcome.statusCode ?? 'No answer'}</dd>
              <dt>Duration</dt>
              <dd>{formatMs(outcome.durationMs)}</dd>
              {outcome.error && (
                <>
                  <dt>Error</dt>
                  <dd>{outcome.error}</dd>
                </>
              )}
              <dt>Response body{outcome.responseBodyTruncated && ' (truncated)'}</dt>
              <dd>{outcome.responseBody ? <pre>{outcome.responseBody}</pre> : 'Empty'}</dd>
            </dl>
          </div>
        )}
      </div>
    </section>
  );
}
