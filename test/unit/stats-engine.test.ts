import type { StatsQuery } from '../../common/contracts/stats-query';
import { Duck } from '../../subgraphs/analytics/src/engine/duck';
import { appendRows, createEventTable } from '../../subgraphs/analytics/src/engine/event-table';
import {
  compileStatsQuery,
  type GoalDefinition,
} from '../../subgraphs/analytics/src/engine/stats-sql';
import { generateEventRows } from '../support/event-rows-dataset';
import { recount } from '../support/stats-recount';

const DAY_MS = 86_400_000;
const END = Date.UTC(2026, 10, 28);
const TABLE = 'ev_test';

const GOALS: GoalDefinition[] = [
  { name: 'Signup', kind: 'event', pagePath: null, eventName: 'Signup', currency: null },
  { name: 'Purchase', kind: 'event', pagePath: null, eventName: 'Purchase', currency: 'EUR' },
  { name: 'Visit docs', kind: 'page', pagePath: '/docs/*', eventName: null, currency: null },
  { name: 'Pricing', kind: 'page', pagePath: '/pricing', eventName: null, currency: null },
];

const rows = generateEventRows({ seed: 42, days: 20, visitorsPerDay: 60, end: END });

function query(overrides: Partial<StatsQuery>): StatsQuery {
  return {
    metrics: ['visitors', 'pageviews'],
    dimensions: [],
    filter: null,
    dateRange: { from: '2026-11-09', to: '2026-11-27' },
    include: { totalRows: false, timeLabels: false, comparison: null },
    orderBy: [],
    limit: 10_000,
    offset: 0,
    ...overrides,
  };
}

const ALL_METRICS: StatsQuery['metrics'] = [
  'visitors',
  'pageviews',
  'events',
  'sessions',
  'bounce_rate',
  'visit_duration',
  'views_per_visit',
  'percentage',
  'revenue',
];

describe('the engine’s statements against a recount of the events (stats-sql.ts)', () => {
  let duck: Duck;

  beforeAll(async () => {
    duck = await Duck.open({ threads: 2 });
    await createEventTable(duck, TABLE);
    await appendRows(duck, TABLE, rows);
  });
  afterAll(() => duck.close());

  async function expectRecount(
    q: StatsQuery,
    from = END - 20 * DAY_MS + DAY_MS,
    to = END - DAY_MS,
  ) {
    const compiled = compileStatsQuery(q, TABLE, from, to, GOALS);
    const answered = await duck.query(compiled.sql, compiled.params);
    const expected = recount(rows, q, from, to, GOALS);
    const got = new Map(
      answered.map((row) => {
        const dims = compiled.dimensionColumns.map((c) => row[c] as string);
        const metrics = Object.fromEntries(
          q.metrics.map((m) => [m, row[m] === null ? null : Number(row[m])]),
        );
        return [JSON.stringify(dims), { dimensions: dims, metrics }];
      }),
    );
    const want = new Map(
      [...expected].map(([k, row]) => [
        k,
        {
          dimensions: row.dimensions,
          metrics: Object.fromEntries(q.metrics.map((m) => [m, row.metrics[m] ?? null])),
        },
      ]),
    );
    // Revenue sums of decimals: compared to the cent.
    const rounded = (map: typeof got) =>
      new Map(
        [...map].map(([k, row]) => [
          k,
          {
            ...row,
            metrics: Object.fromEntries(
              Object.entries(row.metrics).map(([m, v]) => [
                m,
                m === 'revenue' && v !== null ? Math.round(v * 100) / 100 : v,
              ]),
            ),
          },
        ]),
      );
    expect(rounded(got)).toEqual(rounded(want));
    expect(answered.every((row) => Number(row.total_rows) === answered.length)).toBe(true);
  }

  it('DATA-6: when no dimension is asked, then one row of every metric equals the recount', async () => {
    await expectRecount(query({ metrics: ALL_METRICS }));
  });

  it.each([
    'page',
    'entry_page',
    'exit_page',
    'hostname',
    'source',
    'referrer',
    'utm_source',
    'utm_medium',
    'utm_campaign',
    'utm_content',
    'utm_term',
    'country',
    'device',
    'browser',
    'os',
    'event',
    'event:props:plan',
    'time:hour',
    'time:day',
    'time:week',
    'time:month',
  ] as const)('DATA-6: when the dimension is %s, then every row equals the recount', async (d) => {
    await expectRecount(query({ metrics: ALL_METRICS, dimensions: [d] }));
  });

  it('DATA-6: when two dimensions and three filters on other dimensions are asked, then every row equals the recount', async () => {
    await expectRecount(
      query({
        metrics: ALL_METRICS,
        dimensions: ['page', 'country'],
        filter: {
          op: 'and',
          filters: [
            { op: 'is', dimension: 'device', values: ['mobile', 'tablet'], caseSensitive: true },
            { op: 'is_not', dimension: 'source', values: ['google'], caseSensitive: true },
            { op: 'contains', dimension: 'browser', values: ['fire', 'chr'], caseSensitive: false },
          ],
        },
      }),
    );
  });

  it.each([
    ['is', 'Newsletter', true],
    ['is', 'newsletter', false],
    ['is_not', 'direct', true],
    ['contains', 'NEWS', false],
    ['contains', 'NEWS', true],
    ['contains_not', 'example', false],
    ['matches', '^(google|twitter)', true],
    ['matches', '^NEWS', false],
    ['matches_not', 'com$', true],
  ] as const)(
    'DATA-6: when the source filter is %s %s (case sensitive: %s), then every row equals the recount',
    async (op, value, caseSensitive) => {
      await expectRecount(
        query({
          metrics: ALL_METRICS,
          dimensions: ['page'],
          filter: { op, dimension: 'source', values: [value], caseSensitive },
        }),
      );
    },
  );

  it('DATA-6: when filters nest and, or and not, then every row equals the recount', async () => {
    await expectRecount(
      query({
        metrics: ALL_METRICS,
        dimensions: ['device'],
        filter: {
          op: 'or',
          filters: [
            {
              op: 'and',
              filters: [
                { op: 'is', dimension: 'country', values: ['DE'], caseSensitive: true },
                {
                  op: 'not',
                  filter: {
                    op: 'contains',
                    dimension: 'page',
                    values: ['/docs'],
                    caseSensitive: false,
                  },
                },
              ],
            },
            { op: 'is', dimension: 'event:props:plan', values: ['pro'], caseSensitive: true },
            { op: 'is', dimension: 'exit_page', values: ['/pricing'], caseSensitive: true },
          ],
        },
      }),
    );
  });

  it('DATA-6: when goals are the dimension, then conversions, conversion rates and revenue equal the recount', async () => {
    await expectRecount(
      query({
        metrics: ['visitors', 'events', 'conversion_rate', 'revenue'],
        dimensions: ['goal'],
      }),
    );
  });

  it('DATA-6: when a goal filters a daily series, then the conversion rate per day equals the recount', async () => {
    await expectRecount(
      query({
        metrics: ['visitors', 'conversion_rate'],
        dimensions: ['time:day'],
        filter: { op: 'is', dimension: 'goal', values: ['Signup', 'Pricing'], caseSensitive: true },
      }),
    );
  });

  it('DATA-6: when a goal and another dimension are asked, then each conversion rate is a share of that row’s visitors', async () => {
    await expectRecount(
      query({
        metrics: ['visitors', 'conversion_rate'],
        dimensions: ['goal', 'country'],
        filter: { op: 'is_not', dimension: 'device', values: ['tablet'], caseSensitive: true },
      }),
    );
  });
});
