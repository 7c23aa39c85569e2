import type { CollectedEvent } from '../../common/contracts/collected-event';
import { collectPayloadSchema } from '../../rest-facade/src/collect/collect.schema';
import { demoTraffic } from '../../scripts/lib/demo-traffic';
import { enrich } from '../../rest-facade/src/collect/enrich';

/** Two weeks of demo traffic, validated and enriched as POST /api/collect (and the seed) do. */
function collectedDemoTraffic(): CollectedEvent[] {
  return [
    ...demoTraffic({
      trackingCode: 'wa-demo',
      host: 'demo.example.com',
      days: 14,
      visitorsPerDay: 300,
      now: Date.UTC(2026, 2, 10, 12),
    }),
  ].map((e) =>
    enrich(collectPayloadSchema.parse(e.payload), {
      websiteId: 'w',
      ip: e.ip,
      userAgent: e.userAgent,
      countryHeader: undefined,
      salt: 's',
      now: e.ts,
    }),
  );
}

describe('demo traffic', () => {
  const events = collectedDemoTraffic();

  it('DATA-6: when demo traffic is collected, then some visits land on campaign URLs with all five UTM parameters and their source follows utm_source', () => {
    const tagged = events.filter((e) => e.type === 'pageview' && e.utm);
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.some((e) => e.utm && Object.values(e.utm).every((value) => value !== null))).toBe(
      true,
    );
    for (const e of tagged)
      if (e.type === 'pageview') expect(e.source).toBe(e.utm!.source!.toLowerCase());
  });

  it('DATA-6: when demo traffic is collected, then it comes from the bare host and its www. host', () => {
    expect(new Set(events.map((e) => e.hostname))).toEqual(
      new Set(['demo.example.com', 'www.demo.example.com']),
    );
  });

  it('DATA-6: when demo traffic is collected, then purchases carry revenue in several currencies and refunds a negative amount', () => {
    const sales = events.flatMap((e) => (e.type === 'event' && e.revenue ? [e] : []));
    expect(new Set(sales.map((e) => e.name))).toEqual(new Set(['Purchase', 'Refund']));
    expect(new Set(sales.map((e) => e.revenue!.currency)).size).toBeGreaterThan(1);
    for (const sale of sales)
      expect(sale.revenue!.amount.startsWith('-')).toBe(sale.name === 'Refund');
  });
});
