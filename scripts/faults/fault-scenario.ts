/**
 * What the scenarios that break one part and bring it back share: the steady load, the fault
 * once the baseline is answered, the load going on for a while after the part answers again,
 * then the common figures and the four targets every scenario has, with the scenario's own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Outcome } from './load';
import {
  clock,
  LoadSession,
  recordedFigures,
  recoveryFigures,
  tallyFigures,
  type Figures,
  type Recorded,
  type Scenario,
  type ScenarioContext,
} from './session';
import { tally, type Tally } from './stats';
import {
  everyCallLogged,
  everyEventCounted,
  no5xxButServiceUnavailable,
  noResets,
  type TargetResult,
} from './targets';

/** A fault's run, for the scenario's own figures and targets. */
export interface FaultRun {
  session: LoadSession;
  outcomes: Outcome[];
  recorded: Recorded;
  tally: Tally;
  /** When the fault began and when the failed part answered again (ms). */
  faultAt: number;
  restoredAt: number;
}

export interface FaultSpec {
  name: string;
  /**
   * Breaks the part and brings it back; resolves once it answers again, with any figures of its
   * own (how long a restart took).
   */
  fault(context: ScenarioContext): Promise<Figures | void>;
  /** How the line on stderr names the two moments: `Redis paused at …, resumed at …`. */
  broke: string;
  back: string;
  /** How long the load goes on after the part answers again. */
  loadAfterMs: number;
  /** The scenario's own figures (before the recovery ones) and targets (after the shared ones). */
  measure?(run: FaultRun): { figures: Figures; targets?: TargetResult[] };
}

export function faultScenario(spec: FaultSpec): Scenario {
  return {
    name: spec.name,
    async run(context) {
      const session = await LoadSession.begin(context, spec.name);
      const faultAt = Date.now();
      const faultFigures = (await spec.fault(context)) ?? {};
      const restoredAt = Date.now();
      context.say(`${spec.broke} at ${clock(faultAt)}, ${spec.back} at ${clock(restoredAt)}`);
      session.watchPipelines(restoredAt);
      await sleep(spec.loadAfterMs);
      const outcomes = await session.end();
      const recorded = await session.recorded(outcomes, faultAt);
      const t = tally(outcomes);
      const own = spec.measure?.({ session, outcomes, recorded, tally: t, faultAt, restoredAt });
      return {
        figures: {
          ...tallyFigures(t),
          ...recordedFigures(recorded),
          ...faultFigures,
          ...own?.figures,
          ...recoveryFigures(outcomes, faultAt, restoredAt),
        },
        targets: [
          noResets(t),
          no5xxButServiceUnavailable(t),
          everyCallLogged(recorded.calls),
          everyEventCounted(recorded.events),
          ...(own?.targets ?? []),
        ],
      };
    },
  };
}
