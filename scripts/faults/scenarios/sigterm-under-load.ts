/**
 * A graceful stop under load: 100 requests a second over keep-alive connections, year-long
 * queries among them, and SIGTERM to every service in npm start's order (facade, gateway,
 * subgraphs, each once the previous one has exited). Calls answered before the stop must be in
 * the log and page views counted once the stack is started again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Outcome } from '../load';
import {
  clock,
  LoadSession,
  recordedFigures,
  tallyFigures,
  type LoadShape,
  type Scenario,
} from '../session';
import { latencies, percentile, round, tally } from '../stats';
import {
  everyCallLogged,
  everyEventCounted,
  no5xxButServiceUnavailable,
  noResets,
} from '../targets';

/**
 * One in fifteen a page view: 6.7 a second, under the collector's 600 a minute per IP. Sent five
 * at a time every 50 ms: with answers of a few milliseconds (the queries too, on websites this
 * young) requests sent one by one are hardly ever in flight together.
 */
const UNDER_LOAD: LoadShape = {
  ratePerSecond: 100,
  connections: 16,
  burst: 5,
  mix: { websites: 5, analytics: 5, query: 3, webhooks: 1, collect: 1 },
};
/**
 * The signal goes out at a moment with this many requests in flight (or after the wait, with
 * whatever is in flight), so that the stop has answers to finish.
 */
const IN_FLIGHT_AT_SIGNAL = 4;
const IN_FLIGHT_WAIT_MS = 5_000;
/** How long the load goes on once every service has stopped: nothing listens, so refused. */
const LOAD_AFTER_STOP_MS = 1_000;

const answered = (outcomes: readonly Outcome[]) =>
  outcomes.filter((o) => o.ending === 'answered').length;

export const sigtermUnderLoad: Scenario = {
  name: 'sigterm_under_load',
  async run(context) {
    const session = await LoadSession.begin(context, 'sigterm_under_load', UNDER_LOAD);
    const { services } = context.stack;
    await session.load.inFlightAtLeast(IN_FLIGHT_AT_SIGNAL, IN_FLIGHT_WAIT_MS);
    const inFlightAtSignal = new Set(session.load.inFlight());
    const signalAt = Date.now();
    context.say(
      `SIGTERM to the facade at ${clock(signalAt)} with ${inFlightAtSignal.size} in flight`,
    );
    let facadeGoneAt = 0;
    services.child('rest-facade')?.once('exit', () => (facadeGoneAt = Date.now()));
    const took = await services.stopAll();
    const stoppedAt = Date.now();
    context.say(`every service stopped at ${clock(stoppedAt)}`);
    await sleep(LOAD_AFTER_STOP_MS);
    const outcomes = await session.end();
    context.say('starting the services again to read what they recorded');
    await services.startAll();
    const recorded = await session.recorded(outcomes, signalAt);
    const t = tally(outcomes);
    const whileStopping = outcomes.filter(
      (o) => o.startedAt >= signalAt && o.startedAt < facadeGoneAt,
    );
    const queries = outcomes.filter((o) => o.kind === 'query' && o.ending === 'answered');
    return {
      figures: {
        ...tallyFigures(t),
        ...recordedFigures(recorded),
        in_flight_at_signal: inFlightAtSignal.size,
        in_flight_answered: answered(outcomes.filter((o) => inFlightAtSignal.has(o.id))),
        sent_while_facade_stopping: whileStopping.length,
        answered_while_facade_stopping: answered(whileStopping),
        query_p50_ms: round(percentile(latencies(queries), 50)),
        query_max_ms: round(percentile(latencies(queries), 100)),
        stop_s: [...took].map(([name, s]) => `${name}:${s.toFixed(1)}`).join(','),
        all_stopped_s: round((stoppedAt - signalAt) / 1000, 2),
      },
      targets: [
        noResets(t),
        no5xxButServiceUnavailable(t),
        everyCallLogged(recorded.calls),
        everyEventCounted(recorded.events),
      ],
    };
  },
};
