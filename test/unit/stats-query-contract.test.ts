import { statsQuerySchema, type StatsQuery } from '../../common/contracts/stats-query';

const query = (overrides: Partial<StatsQuery>): StatsQuery => ({
  metrics: ['visitors'],
  dimensions: [],
  filter: null,
  dateRange: { from: '2026-11-01', to: '2026-11-27' },
  include: { totalRows: false, timeLabels: false, comparison: null },
  orderBy: [],
  limit: 10,
  offset: 0,
  ...overrides,
});

/** The schema the analytics subgraph checks every StatsQuery with, whoever sent it. */
describe('the normalized query (common/contracts/stats-query.ts)', () => {
  it('DATA-6: when a query is well formed, then the subgraph accepts it', () => {
    expect(statsQuerySchema.safeParse(query({ dimensions: ['page', 'time:day'] })).success).toBe(
      true,
    );
  });

  it.each<[string, Partial<StatsQuery>, string]>([
    ['a repeated metric', { metrics: ['visitors', 'visitors'] }, 'each metric at most once'],
    ['a repeated dimension', { dimensions: ['page', 'page'] }, 'each dimension at most once'],
    [
      'two time dimensions',
      { dimensions: ['time:day', 'time:hour'] },
      'at most one time dimension',
    ],
  ])(
    'DATA-6: when a query sent through GraphQL has %s, then it is refused saying so',
    (_, overrides, message) => {
      const parsed = statsQuerySchema.safeParse(query(overrides));
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.message)).toContain(message);
    },
  );
});
