import type { Response } from 'express';
import type { CallUsage } from '../../../common/contracts/call-log';

/**
 * What the call log records of a call besides its request and response (call-logger.ts): the key
 * it was made with and what it counted toward, filled in by the API-key pipeline as it learns
 * them, and whether the pipeline is still deciding them when the response closes.
 */
export class CallEntry {
  /** The key the call was made with, once identified (a refused key's too, when known). */
  keyId: string | null = null;
  /** What the call counts toward (null: nothing, e.g. no decision was made). */
  usage: CallUsage | null = null;
  /** Told when the record is built (the call log's admission, CallLogWriter.admitted). */
  onRecorded: (() => void) | null = null;
  private answering: Promise<void> | null = null;

  /** The handler of the call runs `answer`; the record waits for it (answeredThen). */
  async whileAnswering(answer: () => Promise<void>): Promise<void> {
    const running = answer();
    this.answering = running.then(
      () => undefined,
      () => undefined,
    );
    try {
      await running;
    } finally {
      this.answering = null;
    }
  }

  /** Null once the handler is done; else a promise that settles when it is. */
  stillAnswering(): Promise<void> | null {
    return this.answering;
  }
}

const entries = new WeakMap<Response, CallEntry>();

/** The call log entry of a response, made on first use. */
export function callEntryOf(res: Response): CallEntry {
  let entry = entries.get(res);
  if (!entry) entries.set(res, (entry = new CallEntry()));
  return entry;
}
