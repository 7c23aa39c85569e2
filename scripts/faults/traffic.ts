/**
 * What the load sends: External API reads with the scenario's key, page views to the scenario's
 * websites, and, when asked, slow `POST /query` calls, mixed by weight in a fixed order.
 */
import type { LoadRequest } from './load';
import type { Fixture } from './account';

/** A desktop Chrome: a browser the collector counts (bots and requests without one are dropped). */
export const CHROME_DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export type Kind = 'websites' | 'analytics' | 'query' | 'webhooks' | 'collect';
/** The kinds sent with the key, so logged in its call log. */
export const KEYED_KINDS: readonly string[] = ['websites', 'analytics', 'query'];

/** Range, metrics and a dimension that make each query read a year of days. */
const SLOW_QUERIES = ['page', 'time:day', 'country', 'browser'].map((dimension) =>
  JSON.stringify({
    metrics: ['visitors', 'pageviews', 'sessions', 'bounce_rate', 'visit_duration', 'events'],
    dimensions: [dimension],
    date_range: '1y',
    limit: 100,
  }),
);

export class Traffic {
  /** Where page views go: the first website until `sendEventsToSecondWebsite()`. */
  private eventsTo: Fixture['websites'][number];
  private readonly order: Kind[];

  constructor(
    private readonly fixture: Fixture,
    weights: Partial<Record<Kind, number>>,
  ) {
    this.eventsTo = fixture.websites[0];
    this.order = weightedOrder(weights);
  }

  /**
   * From now on page views go to the second website, so the first of them counted shows that
   * events sent after this moment flow again (a count on one website cannot tell).
   */
  sendEventsToSecondWebsite(): void {
    this.eventsTo = this.fixture.websites[1];
  }

  readonly next = (n: number): LoadRequest => {
    const kind = this.order[(n - 1) % this.order.length]!;
    const api = '/api/external/v1';
    const site = this.fixture.websites[0];
    const key = { 'x-api-key': this.fixture.key };
    switch (kind) {
      case 'websites':
        return { kind, method: 'GET', path: `${api}/websites`, headers: key };
      case 'analytics':
        return { kind, method: 'GET', path: `${api}/analytics/${site.id}?range=7d`, headers: key };
      case 'query':
        return {
          kind,
          method: 'POST',
          path: `${api}/query/${site.id}`,
          headers: { ...key, 'content-type': 'application/json' },
          body: SLOW_QUERIES[n % SLOW_QUERIES.length],
        };
      case 'webhooks':
        return {
          kind,
          method: 'GET',
          path: '/v1/cli/mutate/webhooks',
          headers: { authorization: `Bearer ${this.fixture.token}` },
        };
      case 'collect':
        return {
          kind,
          method: 'POST',
          path: '/api/collect',
          headers: { 'content-type': 'text/plain', 'user-agent': CHROME_DESKTOP },
          body: JSON.stringify({
            type: 'pageview',
            trackingCode: this.eventsTo.trackingCode,
            url: `https://${this.eventsTo.domain}/p`,
          }),
          readAccepted: true,
        };
    }
  };
}

/**
 * One cycle of kinds in which each appears `weight` times, spread out (smooth weighted round
 * robin), so any stretch of the load has the same mix.
 */
function weightedOrder(weights: Partial<Record<Kind, number>>): Kind[] {
  const entries = Object.entries(weights).filter(([, w]) => w && w > 0) as Array<[Kind, number]>;
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  const current = new Map<Kind, number>(entries.map(([kind]) => [kind, 0]));
  const order: Kind[] = [];
  for (let i = 0; i < total; i++) {
    for (const [kind, weight] of entries) current.set(kind, current.get(kind)! + weight);
    const [best] = [...current.entries()].sort((a, b) => b[1] - a[1])[0]!;
    current.set(best, current.get(best)! - total);
    order.push(best);
  }
  return order;
}
