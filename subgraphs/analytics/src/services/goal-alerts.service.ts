/**
 * `goal.reached` findings: about every minute, each goal of each website that has goals (as the
 * keys subgraph mirrors them: common/contracts/goal-mirror.ts) is counted for the UTC day so far,
 * in unique converting visitors; a count above the one last seen is published with both, once.
 * Each webhook then takes the day's first conversion and, if it asks, every N-th.
 */
import type { MirroredGoal } from '../../../../common/contracts/goal-mirror';
import type { WebsiteEvent } from '../../../../common/contracts/website-events';
import type { Logger } from '../../../../common/platform/logger';
import type { RedisClient } from '../../../../common/platform/redis';
import { dayKeyOf } from '../store/hot-keys';
import type { StatsQueryService } from './stats-query.service';
import { oneDay } from './website-alerts.service';

/** Keeps the higher count and answers the one it held (0 when none): one instance sees a rise. */
const RAISE = `
local held = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local count = tonumber(ARGV[2])
if count > held then
  redis.call('HSET', KEYS[1], ARGV[1], count)
  redis.call('EXPIRE', KEYS[1], 172800)
end
return held`;

export class GoalAlertsService {
  constructor(
    private readonly stats: StatsQueryService,
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly goals: () => Promise<Map<string, MirroredGoal[]>>,
    private readonly publish: (event: WebsiteEvent) => Promise<boolean>,
    private readonly logger: Logger,
    /** Tests move it. */
    public clock: () => number = Date.now,
  ) {}

  /** Counts every mirrored goal for today; returns what it published. */
  async check(): Promise<WebsiteEvent[]> {
    const now = this.clock();
    const day = dayKeyOf(now);
    const published: WebsiteEvent[] = [];
    for (const [website, goals] of await this.goals()) {
      try {
        published.push(...(await this.countWebsite(website, goals, day, now)));
      } catch (error) {
        this.logger.warn(
          { website, err: (error as Error).message },
          'website goals not counted for alerts',
        );
      }
    }
    return published;
  }

  private async countWebsite(
    website: string,
    goals: MirroredGoal[],
    day: string,
    now: number,
  ): Promise<WebsiteEvent[]> {
    const answer = await this.stats.run(
      website,
      oneDay(day, ['visitors'], { dimensions: ['goal'] }),
      goals,
    );
    const published: WebsiteEvent[] = [];
    for (const row of answer.results) {
      const goal = row.dimensions[0] ?? '';
      const conversions = Number(row.metrics[0] ?? 0);
      if (conversions < 1) continue;
      const previous = Number(
        await this.redis.eval(
          RAISE,
          1,
          `${this.prefix}goals:conversions:${day}`,
          `${website}\n${goal}`,
          conversions,
        ),
      );
      if (conversions <= previous) continue;
      const event: WebsiteEvent = {
        id: `wev_goal.reached_${website}_${day}_${goal}_${conversions}`,
        type: 'goal.reached',
        websiteId: website,
        createdAt: new Date(now).toISOString(),
        data: { website_id: website, goal, day, conversions, previous },
      };
      if (await this.publish(event)) published.push(event);
    }
    return published;
  }
}
