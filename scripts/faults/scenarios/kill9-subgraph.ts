/**
 * One subgraph is killed (SIGKILL) under load and started again 3 s later with the same
 * environment and port; the load goes on until 5 s after it is ready. While it is away the
 * facade must answer 503, not 500 or 502, and keep its connections.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { once } from 'node:events';
import {
  clock,
  LoadSession,
  recordedFigures,
  recoveryFigures,
  tallyFigures,
  type Scenario,
} from '../session';
import type { SUBGRAPHS } from '../services';
import { round, tally } from '../stats';
import {
  everyCallLogged,
  everyEventCounted,
  no5xxButServiceUnavailable,
  noResets,
} from '../targets';

const AWAY_MS = 3_000;
const LOAD_AFTER_MS = 5_000;

export function kill9Subgraph(subgraph: (typeof SUBGRAPHS)[number]): Scenario {
  const name = `kill9_subgraph_${subgraph}`;
  return {
    name,
    async run(context) {
      const session = await LoadSession.begin(context, name);
      const { services } = context.stack;
      const faultAt = Date.now();
      await once(services.signal(subgraph, 'SIGKILL'), 'exit');
      await sleep(AWAY_MS);
      const restartAt = Date.now();
      await services.start(subgraph);
      const restoredAt = Date.now();
      context.say(`${subgraph} killed at ${clock(faultAt)}, ready again at ${clock(restoredAt)}`);
      session.watchPipelines(restoredAt);
      await sleep(LOAD_AFTER_MS);
      const outcomes = await session.end();
      const recorded = await session.recorded(outcomes, faultAt);
      const t = tally(outcomes);
      return {
        figures: {
          ...tallyFigures(t),
          ...recordedFigures(recorded),
          boot_s: round((restoredAt - restartAt) / 1000, 2),
          ...recoveryFigures(outcomes, faultAt, restoredAt),
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
}
