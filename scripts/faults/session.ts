/**
 * One scenario's load from start to end: its own fixture (key and websites), the traffic mix at
 * a fixed rate, the watch for pipelines flowing again after a fault, and the comparison of what
 * was answered with what the stack recorded.
 */
import type { Account, Fixture } from './account';
import {
  CATCH_UP_MS,
  compareCallLog,
  compareEvents,
  countedPageviews,
  newestCallAt,
  secondsUntil,
  type CallLogFigures,
  type EventFigures,
  type Reader,
} from './checks';
import { startLoad, type Outcome, type RunningLoad } from './load';
import type { ServiceLogs } from './logs';
import type { FaultStack } from './stack';
import { round, type Tally } from './stats';
import type { TargetResult } from './targets';
import { KEYED_KINDS, Traffic, type Kind } from './traffic';

export type Figures = Record<string, number | string | null>;

/** A moment as the services' logs show it (UTC time of day), to find a fault in them. */
export const clock = (ms: number) => new Date(ms).toISOString().slice(11, 23);

export interface ScenarioContext {
  stack: FaultStack;
  account: Account;
  reader: Reader;
  logs: ServiceLogs;
  say(text: string): void;
}

export interface ScenarioResult {
  figures: Figures;
  targets: TargetResult[];
}

export interface Scenario {
  name: string;
  run(context: ScenarioContext): Promise<ScenarioResult>;
}

export interface LoadShape {
  ratePerSecond: number;
  connections: number;
  /** Requests sent together (see `LoadOptions.burst`). */
  burst?: number;
  /** Whole numbers. Page views stay under the collector's 600 a minute per IP (all come from 127.0.0.1). */
  mix: Partial<Record<Kind, number>>;
}

/** 60 requests a second, one in ten a page view (6 a second, 360 a minute). */
export const STEADY_LOAD: LoadShape = {
  ratePerSecond: 60,
  connections: 16,
  mix: { websites: 4, analytics: 4, webhooks: 1, collect: 1 },
};

/** Answers to wait for before the fault, so the figures "before" rest on warm connections. */
const BASELINE_ANSWERS = 150;

export class LoadSession {
  readonly startedAt = Date.now();
  private pipelines: Promise<NonNullable<Recorded['flowing']>> | null = null;

  private constructor(
    private readonly context: ScenarioContext,
    readonly fixture: Fixture,
    private readonly traffic: Traffic,
    readonly load: RunningLoad,
  ) {}

  /**
   * Makes the scenario's fixture, runs `beforeLoad` with it, starts the load and waits for the
   * baseline's answers.
   */
  static async begin(
    context: ScenarioContext,
    name: string,
    shape: LoadShape = STEADY_LOAD,
    beforeLoad?: (fixture: Fixture) => Promise<void>,
  ): Promise<LoadSession> {
    const fixture = await context.account.fixture(name);
    await beforeLoad?.(fixture);
    const traffic = new Traffic(fixture, shape.mix);
    const load = startLoad({
      origin: context.stack.facadeUrl,
      ratePerSecond: shape.ratePerSecond,
      connections: shape.connections,
      burst: shape.burst,
      next: traffic.next,
    });
    const session = new LoadSession(context, fixture, traffic, load);
    await load.answered(BASELINE_ANSWERS);
    return session;
  }

  /**
   * The fault is over at `since`: page views go to the second website from now on, and the
   * watch starts for the first call made after `since` to be in the key's log and the first
   * page view to the second website to be counted (`recorded()` reports both).
   */
  watchPipelines(since: number): void {
    this.traffic.sendEventsToSecondWebsite();
    const { reader } = this.context;
    this.pipelines = Promise.all([
      secondsUntil(
        since,
        async () => ((await newestCallAt(reader, this.fixture.keyId)) ?? 0) >= since,
      ),
      secondsUntil(
        since,
        async () => (await countedPageviews(reader, this.fixture.websites[1].id)) > 0,
      ),
    ]).then(([calls, events]) => ({ calls: round(calls), events: round(events) }));
  }

  /** Stops the load; every request in flight ends first. */
  end(): Promise<Outcome[]> {
    return this.load.stop();
  }

  /**
   * Compares the answered calls with the key's log and the accepted page views with the
   * counts, once the pipelines flow again (or their watch gave up), and not calling a shortfall
   * final before `CATCH_UP_MS` after the fault began at `faultAt`: a consumer that resumes only
   * after a lease expires, or entries claimed from a dead consumer, must not pass for lost data.
   */
  async recorded(outcomes: readonly Outcome[], faultAt: number): Promise<Recorded> {
    const flowing = this.pipelines ? await this.pipelines : null;
    const answeredIds = outcomes
      .filter((o) => KEYED_KINDS.includes(o.kind) && o.ending === 'answered' && o.requestId)
      .map((o) => o.requestId!);
    const accepted = outcomes.filter(
      (o) => o.kind === 'collect' && o.status === 202 && o.accepted === true,
    ).length;
    const { reader } = this.context;
    const settling = { notBefore: faultAt + CATCH_UP_MS };
    const [calls, events] = await Promise.all([
      compareCallLog(reader, this.fixture.keyId, answeredIds, settling),
      compareEvents(
        reader,
        this.fixture.websites.map((w) => w.id),
        accepted,
        settling,
      ),
    ]);
    return { calls, events, flowing };
  }
}

export interface Recorded {
  calls: CallLogFigures;
  events: EventFigures;
  /**
   * Seconds from the fault's end until each pipeline flowed again (null: not within 30 s); null
   * when not watched.
   */
  flowing: { calls: number | null; events: number | null } | null;
}

/** How the requests ended, as figures. */
export function tallyFigures(t: Tally): Figures {
  return {
    sent: t.sent,
    answered: t.answered,
    status_2xx: t.s2xx,
    status_4xx: t.s4xx,
    status_503: t.s503,
    status_5xx_other: t.s5xxOther,
    resets: t.resets,
    refused: t.refused,
    timeouts: t.timeouts,
    other_errors: t.errors,
    statuses: t.detail,
  };
}

export function recordedFigures({ calls, events, flowing }: Recorded): Figures {
  return {
    calls_answered: calls.answered,
    calls_logged: calls.logged,
    calls_missing: calls.missing,
    events_accepted: events.accepted,
    events_counted: events.counted,
    ...(flowing ? { calls_flowing_s: flowing.calls, events_flowing_s: flowing.events } : {}),
  };
}

const is2xx = (o: Outcome) =>
  o.ending === 'answered' && o.status !== undefined && o.status >= 200 && o.status < 300;

/**
 * Recovery as the client saw it, in seconds after `restoredAt` (the moment the failed part
 * answered again). The kinds of request that failed during the fault (non-2xx or no answer)
 * are what must recover: `first_2xx_s` is when the last of them got its first 2xx answer to a
 * request sent after `restoredAt` (null: one never did), `last_failure_s` when the last
 * non-2xx or unanswered request of the scenario ended (0 if none ended after `restoredAt`).
 */
export function recoveryFigures(
  outcomes: readonly Outcome[],
  faultAt: number,
  restoredAt: number,
): Figures {
  const failedKinds = new Set(
    outcomes.filter((o) => o.startedAt >= faultAt && !is2xx(o)).map((o) => o.kind),
  );
  let first: number | null = 0;
  for (const kind of failedKinds) {
    const ok = outcomes.filter((o) => o.kind === kind && o.startedAt >= restoredAt && is2xx(o));
    const at = ok.length > 0 ? Math.min(...ok.map((o) => o.endedAt)) : null;
    first = first === null || at === null ? null : Math.max(first, at - restoredAt);
  }
  const failures = outcomes.filter((o) => o.startedAt >= faultAt && !is2xx(o));
  const lastFailure = failures.length > 0 ? Math.max(...failures.map((o) => o.endedAt)) : 0;
  return {
    first_2xx_s: first === null ? null : round(first / 1000, 2),
    last_failure_s: round(Math.max(0, lastFailure - restoredAt) / 1000, 2),
  };
}
