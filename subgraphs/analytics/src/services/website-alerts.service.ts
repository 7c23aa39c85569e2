/**
 * Findings about websites' traffic that webhooks can subscribe to (common/contracts/website-events.ts):
 * once an hour a spike or a drop of the last complete hour's visitors against that hour's baseline,
 * and once a day yesterday's summary. Every instance looks; a finding's id is fixed by what it is
 * about, so it is published once however many find it.
 */
import type { StatsQuery } from '../../../../common/contracts/stats-query';
import {
  DROP_CEILING,
  SPIKE_FLOOR,
  type WebsiteEvent,
} from '../../../../common/contracts/website-events';
import type { Logger } from '../../../../common/platform/logger';
import { DAY_MS, floorHour, HOUR_MS } from '../ingest/time-buckets';
import type { DayIndexStore } from '../store/day-index';
import { dayKeyOf, type DayKey } from '../store/hot-keys';
import type { StatsQueryService } from './stats-query.service';

export const ALERT_CHECK_EVERY_MS = 60_000;
/** A closed hour or day is looked at this long after it ends, once its events were applied. */
export const SETTLE_MS = 2 * 60_000;
/** Below this many visitors in both the hour and its baseline, a change is noise. */
export const MIN_ALERT_VISITORS = 10;
/** Weeks of the same weekday and hour in the baseline. */
const BASELINE_WEEKS = 4;
const WEEK_MS = 7 * DAY_MS;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** One UTC day's question, as the alerts ask it. */
export function oneDay(
  day: DayKey,
  metrics: StatsQuery['metrics'],
  extra: Partial<StatsQuery> = {},
) {
  return {
    metrics,
    dimensions: [],
    filter: null,
    dateRange: { from: day, to: day },
    include: { totalRows: false, timeLabels: false, comparison: null },
    orderBy: [],
    limit: 10_000,
    offset: 0,
    ...extra,
  } satisfies StatsQuery;
}

export class WebsiteAlertsService {
  /** The last hour and day looked at by this instance. */
  private checkedHour = 0;
  private checkedDay: DayKey = '';

  constructor(
    private readonly stats: StatsQueryService,
    private readonly index: DayIndexStore,
    private readonly publish: (event: WebsiteEvent) => Promise<boolean>,
    private readonly logger: Logger,
    /** Tests move it. */
    public clock: () => number = Date.now,
  ) {}

  /** Looks at the last closed hour and day if this instance has not yet; returns what it published. */
  async check(): Promise<WebsiteEvent[]> {
    const now = this.clock();
    const hour = floorHour(now - SETTLE_MS) - HOUR_MS;
    const day = dayKeyOf(now - SETTLE_MS - DAY_MS);
    const published: WebsiteEvent[] = [];
    if (hour === this.checkedHour && day === this.checkedDay) return published;
    let failures = 0;
    for (const website of await this.index.websites()) {
      try {
        const days = (await this.index.cached(website)).days;
        if (hour !== this.checkedHour) published.push(...(await this.traffic(website, hour, days)));
        if (day !== this.checkedDay && days.has(day))
          published.push(...(await this.report(website, day, now)));
      } catch (error) {
        // One website's failure holds up no other website's; the look is made again next
        // minute, and what was published already is not published twice (its id is fixed).
        failures += 1;
        this.logger.warn(
          { website, err: (error as Error).message },
          'website not looked at for alerts',
        );
      }
    }
    if (failures === 0) {
      this.checkedHour = hour;
      this.checkedDay = day;
    }
    if (published.length > 0)
      this.logger.info({ events: published.length }, 'website findings published');
    return published;
  }

  /** A spike or a drop of `hour` against the same hour of the previous weeks, or nothing. */
  private async traffic(
    website: string,
    hour: number,
    days: ReadonlyMap<DayKey, unknown>,
  ): Promise<WebsiteEvent[]> {
    const weeks = Array.from({ length: BASELINE_WEEKS }, (_, i) => hour - (i + 1) * WEEK_MS).filter(
      (at) => days.has(dayKeyOf(at)),
    );
    if (weeks.length === 0) return [];
    const visitors = await this.hourVisitors(website, hour, days);
    let sum = 0;
    for (const at of weeks) sum += await this.hourVisitors(website, at, days);
    const baseline = sum / weeks.length;
    if (baseline === 0 || Math.max(visitors, baseline) < MIN_ALERT_VISITORS) return [];
    const ratio = round2(visitors / baseline);
    const type =
      ratio >= SPIKE_FLOOR ? 'traffic.spike' : ratio <= DROP_CEILING ? 'traffic.drop' : null;
    if (!type) return [];
    const hourStart = new Date(hour).toISOString();
    const event: WebsiteEvent = {
      id: `wev_${type}_${website}_${hourStart}`,
      type,
      websiteId: website,
      createdAt: new Date(this.clock()).toISOString(),
      data: {
        website_id: website,
        hour_start: hourStart,
        visitors,
        baseline: round2(baseline),
        ratio,
        weeks: weeks.length,
      },
    };
    return (await this.publish(event)) ? [event] : [];
  }

  /** Unique visitors of one hour (0 on a day without data). */
  private async hourVisitors(
    website: string,
    hour: number,
    days: ReadonlyMap<DayKey, unknown>,
  ): Promise<number> {
    const day = dayKeyOf(hour);
    if (!days.has(day)) return 0;
    const label = `${new Date(hour).toISOString().slice(0, 13)}:00:00Z`;
    const answer = await this.stats.run(
      website,
      oneDay(day, ['visitors'], { dimensions: ['time:hour'] }),
      [],
    );
    return Number(answer.results.find((row) => row.dimensions[0] === label)?.metrics[0] ?? 0);
  }

  /** Yesterday's summary of a website with data that day. */
  private async report(website: string, day: DayKey, now: number): Promise<WebsiteEvent[]> {
    const totals = await this.stats.run(
      website,
      oneDay(day, ['visitors', 'pageviews', 'sessions', 'bounce_rate']),
      [],
    );
    const top = async (dimension: 'page' | 'source') => {
      const answer = await this.stats.run(
        website,
        oneDay(day, ['visitors'], {
          dimensions: [dimension],
          orderBy: [{ field: 'visitors', direction: 'desc' }],
          limit: 5,
        }),
        [],
      );
      return answer.results.map((row) => ({
        name: row.dimensions[0] ?? '',
        visitors: Number(row.metrics[0] ?? 0),
      }));
    };
    const [visitors, pageviews, sessions, bounceRate] = totals.results[0]?.metrics ?? [];
    const event: WebsiteEvent = {
      id: `wev_report.daily_${website}_${day}`,
      type: 'report.daily',
      websiteId: website,
      createdAt: new Date(now).toISOString(),
      data: {
        website_id: website,
        day,
        visitors: Number(visitors ?? 0),
        pageviews: Number(pageviews ?? 0),
        sessions: Number(sessions ?? 0),
        bounce_rate: bounceRate ?? null,
        top_pages: await top('page'),
        top_sources: await top('source'),
      },
    };
    return (await this.publish(event)) ? [event] : [];
  }
}
