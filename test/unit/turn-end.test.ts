import { batchAtTurnEnd, flushAtTurnEnd } from '../../common/platform/turn-end';

/** Resolves once every setImmediate queued so far (and the next loop turn's) has run. */
const nextTurns = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describe('the end of a turn of the event loop', () => {
  it('when a batch is asked for after a flush in the same turn, then the batch runs first', async () => {
    const order: string[] = [];
    flushAtTurnEnd(() => order.push('flush'));
    batchAtTurnEnd(() => order.push('batch'));
    await nextTurns();
    expect(order).toEqual(['batch', 'flush']);
  });

  it('when the turn batches start promise jobs that ask for a flush, then it runs after them in the same turn end', async () => {
    const order: string[] = [];
    batchAtTurnEnd(() => {
      order.push('batch');
      void Promise.resolve().then(() => flushAtTurnEnd(() => order.push('flush from a job')));
    });
    flushAtTurnEnd(() => order.push('flush'));
    setImmediate(() => order.push('a later immediate'));
    await nextTurns();
    expect(order).toEqual(['batch', 'flush', 'flush from a job', 'a later immediate']);
  });

  it('when a batch is asked for once the turn batches ran, then it runs at the next turn end, before that end’s flush', async () => {
    const order: string[] = [];
    batchAtTurnEnd(() => {
      order.push('batch');
      batchAtTurnEnd(() => order.push('batch asked by a batch'));
      flushAtTurnEnd(() => order.push('flush'));
    });
    await nextTurns();
    expect(order).toEqual(['batch', 'flush', 'batch asked by a batch']);
  });

  it('when a flush asks for a batch, then the batch still runs', async () => {
    const order: string[] = [];
    flushAtTurnEnd(() => {
      order.push('flush');
      batchAtTurnEnd(() => order.push('batch asked by a flush'));
    });
    await nextTurns();
    expect(order).toEqual(['flush', 'batch asked by a flush']);
  });
});
