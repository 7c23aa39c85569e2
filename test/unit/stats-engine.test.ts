import type { StatsQuery } from '../../common/contracts/stats-query';
import { Duck } from '../../subgraphs/analytics/src/engine/duck';
import {
  insertKeyed,
  learnedSince,
  queryWithKeys,
  resolveKeys,
  writingDictionaries,
} from '../../subgraphs/analytics/src/engine/dictionary';
import { EVENT_COLUMNS, type EventRow } from '../../subgraphs/analytics/src/engine/event-rows';
import { appendRows, createEventTable } from '../../subgraphs/analytics/src/engine/event-table';
import {
  compileStatsQuery,
  type GoalDefinition,
  type ResolvedKeys,
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
    include: { totalRows: true, timeLabels: false, comparison: null },
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

/** Appends rows to a website's table as loads do: keyed through its dictionary. */
async function loadKeyed(duck: Duck, table: string, loaded: readonly EventRow[]): Promise<void> {
  const plain = `${table}_plain`;
  await duck.run(`CREATE OR REPLACE TABLE ${plain} (${EVENT_COLUMNS})`);
  await appendRows(duck, plain, loaded);
  await insertKeyed(duck, table, `SELECT * FROM ${plain}`);
  await duck.run(`DROP TABLE ${plain}`);
}

describe('the engine’s statements against a recount of the events (stats-sql.ts)', () => {
  let duck: Duck;

  beforeAll(async () => {
    duck = await Duck.open({ threads: 2 });
    await createEventTable(duck, TABLE);
    await loadKeyed(duck, TABLE, rows);
  });
  afterAll(() => duck.close());

  /** Asks `q` with the keys of its filter (as the service asks it) and with text only. */
  async function expectRecount(
    q: StatsQuery,
    from = END - 20 * DAY_MS + DAY_MS,
    to = END - DAY_MS,
  ) {
    const keys = await resolveKeys(duck, TABLE, q.filter);
    await expectAnswer(q, from, to, keys);
    await expectAnswer(q, from, to, null);
  }

  async function expectAnswer(
    q: StatsQuery,
    from: number,
    to: number,
    keys: ResolvedKeys | null,
    table = TABLE,
    counted: readonly EventRow[] = rows,
  ) {
    const compiled = compileStatsQuery(q, table, from, to, GOALS, { keys });
    const answered = await duck.query(compiled.sql, compiled.params);
    const expected = recount(counted, q, from, to, GOALS);
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

  it('DATA-6: when events with new values are loaded after a query worked out its keys, then its answer still equals the recount of every event', async () => {
    const late = 'ev_late';
    const middle = END - 10 * DAY_MS;
    const early = rows.filter((row) => row.ts < middle);
    // A third of the later visitors bring sources, countries and pages the dictionary has not met.
    const later = rows
      .filter((row) => row.ts >= middle)
      .map((row) =>
        row.visitor % 3n === 0n
          ? {
              ...row,
              source: `${row.source ?? 'newcomer'}.late`,
              country: 'ZZ',
              page: `/late${row.page}`,
            }
          : row,
      );
    await createEventTable(duck, late);
    await loadKeyed(duck, late, early);
    const filter: StatsQuery['filter'] = {
      op: 'and',
      filters: [
        { op: 'contains', dimension: 'source', values: ['.'], caseSensitive: false },
        { op: 'is_not', dimension: 'country', values: ['DE'], caseSensitive: true },
        { op: 'matches', dimension: 'page', values: ['^/'], caseSensitive: true },
      ],
    };
    const stale = await resolveKeys(duck, late, filter);
    await loadKeyed(duck, late, later);
    const fresh = await resolveKeys(duck, late, filter);
    for (const dimension of ['source', 'country', 'page'] as const)
      expect(fresh.watermarks.get(dimension)).toBeGreaterThan(stale.watermarks.get(dimension)!);
    expect(await learnedSince(duck, stale)).toBe(true);
    expect(await learnedSince(duck, fresh)).toBe(false);
    const q = query({ metrics: ALL_METRICS, dimensions: ['source', 'country'], filter });
    const [from, to] = [END - 20 * DAY_MS + DAY_MS, END - DAY_MS];
    const all = [...early, ...later];
    // Stale keys alone miss the new values (why queryWithKeys checks); with the text test, exact.
    const staleOnly = compileStatsQuery(q, late, from, to, GOALS, { keys: stale });
    const missed = await duck.query(staleOnly.sql, staleOnly.params);
    expect(missed.some((row) => String(row.d0).endsWith('.late'))).toBe(false);
    await expectAnswer(q, from, to, { ...stale, textAbove: true }, late, all);
    // queryWithKeys, given the stale keys, sees the dictionary moved and asks again with text.
    const asked = await queryWithKeys(duck, stale, (keys) =>
      compileStatsQuery(q, late, from, to, GOALS, { keys }),
    );
    const recounted = recount(all, q, from, to, GOALS);
    expect(asked.rows.map((row) => JSON.stringify([row.d0, row.d1])).sort()).toEqual(
      [...recounted.keys()].sort(),
    );
    await expectAnswer(q, from, to, fresh, late, all);
  });

  describe('questions ordered by visitors, most first, and cut to a page (leadingRows)', () => {
    const heavy = 'ev_heavy';
    // Twelve visitors who each view a page of their own 200 times in one visit: rows with more
    // events than any other but one visitor each, so that the rows with the most events are not
    // the rows with the most visitors; and twelve who view a page of their own once, a visitor
    // as many as each of those.
    const template = rows.find((row) => row.type === 'pageview' && row.ts >= END - 5 * DAY_MS)!;
    const viewsBy = (prefix: string, first: bigint, views: number): EventRow[] =>
      Array.from({ length: 12 }, (_, v) =>
        Array.from({ length: views }, (_, i) => ({
          ...template,
          id: `${prefix}-${v}-${i}`,
          ts: template.ts + i * 1000,
          visitor: first + BigInt(v),
          visit: first + 1_000n + BigInt(v),
          page: `/${prefix}/${v}`,
          entryPage: `/${prefix}/${v}`,
        })),
      ).flat();
    const heavyRows = [...viewsBy('heavy', 10_000_000n, 200), ...viewsBy('a', 20_000_000n, 1)];
    const [from, to] = [END - 20 * DAY_MS + DAY_MS, END - DAY_MS];

    beforeAll(async () => {
      await createEventTable(duck, heavy, { replace: true });
      await loadKeyed(duck, heavy, [...rows, ...heavyRows]);
    });

    /** The recount's rows in the answer's order (visitors, most first, then the dimensions). */
    function recountedPage(q: StatsQuery, counted: readonly EventRow[]) {
      const all = [...recount(counted, q, from, to, GOALS).values()].map((row) => ({
        dimensions: row.dimensions.map(String),
        metrics: Object.fromEntries(q.metrics.map((m) => [m, row.metrics[m] ?? null])),
      }));
      const byDimensions = (a: string[], b: string[]) => {
        const i = a.findIndex((value, j) => value !== b[j]);
        return i < 0 ? 0 : a[i]! < b[i]! ? -1 : 1;
      };
      all.sort(
        (a, b) =>
          Number(b.metrics.visitors) - Number(a.metrics.visitors) ||
          byDimensions(a.dimensions, b.dimensions),
      );
      return { rows: all.slice(q.offset, q.offset + q.limit + 1), total: all.length };
    }

    async function expectLeadingRows(q: StatsQuery, table: string, counted: readonly EventRow[]) {
      const expected = recountedPage(q, counted);
      expect(expected.rows.length).toBeGreaterThan(0);
      for (const keys of [await resolveKeys(duck, table, q.filter), null]) {
        const compiled = compileStatsQuery(q, table, from, to, GOALS, { keys });
        const answered = await duck.query(compiled.sql, compiled.params);
        const got = answered.map((row) => ({
          dimensions: compiled.dimensionColumns.map((c) => String(row[c])),
          metrics: Object.fromEntries(
            q.metrics.map((m) => [
              m,
              row[m] === null
                ? null
                : m === 'revenue'
                  ? Math.round(Number(row[m]) * 100) / 100
                  : Number(row[m]),
            ]),
          ),
        }));
        const want = expected.rows.map((row) => ({
          ...row,
          metrics: Object.fromEntries(
            Object.entries(row.metrics).map(([m, v]) => [
              m,
              m === 'revenue' && v !== null ? Math.round(Number(v) * 100) / 100 : v,
            ]),
          ),
        }));
        expect(got).toEqual(want);
        if (q.include.totalRows)
          expect(answered.every((row) => Number(row.total_rows) === expected.total)).toBe(true);
      }
    }

    const mobile: StatsQuery['filter'] = {
      op: 'and',
      filters: [
        { op: 'is', dimension: 'device', values: ['mobile', 'desktop'], caseSensitive: true },
        { op: 'contains', dimension: 'source', values: ['o'], caseSensitive: false },
      ],
    };
    it.each([
      [
        'page and country, filtered, with every event metric and the total',
        query({
          metrics: ['visitors', 'pageviews', 'events', 'revenue', 'percentage'],
          dimensions: ['page', 'country'],
          filter: mobile,
          limit: 5,
        }),
      ],
      [
        'page, ordered by visitors explicitly, from the eighth row',
        query({
          dimensions: ['page'],
          orderBy: [{ field: 'visitors', direction: 'desc' }],
          limit: 3,
          offset: 7,
        }),
      ],
      [
        'goal, with conversions and revenue',
        query({
          metrics: ['visitors', 'events', 'conversion_rate', 'revenue'],
          dimensions: ['goal'],
          limit: 2,
        }),
      ],
      [
        'a property of one event, from the second row',
        query({
          metrics: ['visitors', 'events'],
          dimensions: ['event:props:plan'],
          filter: { op: 'is', dimension: 'event', values: ['Signup'], caseSensitive: true },
          limit: 1,
          offset: 1,
        }),
      ],
      [
        'source and day, ordered by visitors',
        query({
          dimensions: ['source', 'time:day'],
          orderBy: [{ field: 'visitors', direction: 'desc' }],
          limit: 4,
          include: { totalRows: false, timeLabels: false, comparison: null },
        }),
      ],
    ])(
      'DATA-6: when the question is by %s, then its page equals the recount’s first rows, with and without rows that have many events and one visitor',
      async (_, q) => {
        await expectLeadingRows(q, TABLE, rows);
        await expectLeadingRows(q, heavy, [...rows, ...heavyRows]);
      },
    );

    it('DATA-6: when rows with one event tie rows with many for visitors, then the page holds the first of them by name', async () => {
      const q = query({
        dimensions: ['page'],
        filter: { op: 'matches', dimension: 'page', values: ['^/(a|heavy)/'], caseSensitive: true },
        limit: 5,
      });
      expect(recountedPage(q, heavyRows).rows[0]!.dimensions).toEqual(['/a/0']);
      await expectLeadingRows(q, heavy, [...rows, ...heavyRows]);
    });
  });

  describe('keys kept between questions (dictionary.ts)', () => {
    const kept = 'ev_kept';
    const filter: StatsQuery['filter'] = {
      op: 'and',
      filters: [
        { op: 'contains', dimension: 'source', values: ['o'], caseSensitive: false },
        { op: 'is', dimension: 'device', values: ['mobile', 'tablet'], caseSensitive: true },
      ],
    };
    const q = query({ metrics: ['visitors', 'pageviews'], dimensions: ['source'], filter });
    const [from, to] = [END - 20 * DAY_MS + DAY_MS, END - DAY_MS];
    const ask = (keys: ResolvedKeys) =>
      queryWithKeys(duck, keys, (k) => compileStatsQuery(q, kept, from, to, GOALS, { keys: k }));
    const firstHalf = rows.filter((row) => row.ts < END - 10 * DAY_MS);
    const secondHalf = rows
      .filter((row) => row.ts >= END - 10 * DAY_MS)
      .map((row) => ({ ...row, source: `${row.source ?? 'none'}.org` }));

    /** The DuckDB statements `work` sends. */
    async function statementsOf(work: () => Promise<unknown>): Promise<number> {
      const spy = jest.spyOn(duck, 'query');
      try {
        await work();
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    }

    beforeAll(async () => {
      await createEventTable(duck, kept, { replace: true });
      await loadKeyed(duck, kept, firstHalf);
    });

    it('DATA-6: when the same conditions are asked again and nothing was loaded meanwhile, then their keys are not worked out again and the answer is not checked again', async () => {
      const first = await resolveKeys(duck, kept, filter);
      expect(first.moment).not.toBeNull();
      let again = first;
      expect(
        await statementsOf(async () => {
          again = await resolveKeys(duck, kept, filter);
        }),
      ).toBe(0);
      expect(again.watermarks).toEqual(first.watermarks);
      expect([...again.conditions.values()]).toEqual([...first.conditions.values()]);
      expect(await statementsOf(() => ask(again))).toBe(1);
    });

    it('DATA-6: when events with new values were loaded since, then the keys are worked out again and an answer with the old ones is checked and still equals the recount', async () => {
      await createEventTable(duck, kept, { replace: true });
      await loadKeyed(duck, kept, firstHalf);
      const before = await resolveKeys(duck, kept, filter);
      await loadKeyed(duck, kept, secondHalf);
      let after = before;
      expect(
        await statementsOf(async () => {
          after = await resolveKeys(duck, kept, filter);
        }),
      ).toBe(1);
      expect(after.moment).toBeGreaterThan(before.moment!);
      expect(after.watermarks.get('source')).toBeGreaterThan(before.watermarks.get('source')!);
      let asked: Awaited<ReturnType<typeof ask>> | undefined;
      expect(
        await statementsOf(async () => {
          asked = await ask(before);
        }),
      ).toBe(3);
      const recounted = recount([...firstHalf, ...secondHalf], q, from, to, GOALS);
      expect(asked!.rows.map((row) => JSON.stringify([row.d0])).sort()).toEqual(
        [...recounted.keys()].sort(),
      );
    });

    it('DATA-6: when keys are worked out while a load writes the dictionaries, then they are not kept and an answer with them is checked', async () => {
      let during: ResolvedKeys | undefined;
      await writingDictionaries(duck, kept, async () => {
        during = await resolveKeys(duck, kept, filter);
      });
      expect(during!.moment).toBeNull();
      expect(await statementsOf(() => resolveKeys(duck, kept, filter))).toBe(1);
      expect(await statementsOf(() => ask(during!))).toBe(2);
    });
  });
});
