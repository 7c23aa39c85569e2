/**
 * One subgraph is killed (SIGKILL) under load and started again 3 s later with the same
 * environment and port; the load goes on until 5 s after it is ready. While it is away the
 * facade must answer 503, not 500 or 502, and keep its connections.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { faultScenario } from '../fault-scenario';
import type { Scenario } from '../session';
import type { SUBGRAPHS } from '../services';
import { round } from '../stats';

const AWAY_MS = 3_000;
const LOAD_AFTER_MS = 5_000;

export function kill9Subgraph(subgraph: (typeof SUBGRAPHS)[number]): Scenario {
  return faultScenario({
    name: `kill9_subgraph_${subgraph}`,
    broke: `${subgraph} killed`,
    back: 'ready again',
    loadAfterMs: LOAD_AFTER_MS,
    async fault({ stack: { services } }) {
      await once(services.signal(subgraph, 'SIGKILL'), 'exit');
      await sleep(AWAY_MS);
      const restartAt = Date.now();
      await services.start(subgraph);
      return { boot_s: round((Date.now() - restartAt) / 1000, 2) };
    },
  });
}
