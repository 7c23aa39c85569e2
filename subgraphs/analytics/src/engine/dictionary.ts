import { LRUCache } from 'lru-cache';
import {
  isCondition,
  type FilterCondition,
  type StatsFilter,
} from '../../../../common/contracts/stats-query';
import type { Duck } from './duck';
import {
  dictionaryOf,
  dimensionExpression,
  isKeyed,
  KEYED_DIMENSIONS,
  keyColumn,
  valueCondition,
  type CompiledQuery,
  type KeyedDimension,
  type ResolvedKeys,
  type SqlValue,
} from './stats-sql';

/**
 * A website table's dictionaries, one per keyed dimension (stats-sql.ts KEYED_DIMENSIONS): every
 * value the table holds, as rows show it, with the integer key the table holds beside the text.
 * Keys are handed out from 1 in increasing order as loads meet new values and never change or
 * return, so a value learned after a query worked out its keys has a key above that query's
 * watermark (see queryWithKeys). Loads run one at a time (engine/blocks.ts), which is what makes
 * `max(key) + row_number()` a safe way to hand them out.
 */

/** The key columns of a website's table, after the event fields (engine/event-rows.ts). */
export const KEY_COLUMNS = KEYED_DIMENSIONS.map((d) => `${keyColumn(d)} INTEGER`).join(',\n  ');

export const DICTIONARY_COLUMNS = 'value VARCHAR, key INTEGER';

/** A website's dictionary tables. */
export const dictionariesOf = (table: string): string[] =>
  KEYED_DIMENSIONS.map((d) => dictionaryOf(table, d));

/**
 * Appends the event rows of `source` (a query over event columns, ids included) to a website's
 * table: their new values into the dictionaries, then the rows with their keys, in time order (so
 * that a range reads only the row groups it covers).
 */
export function insertKeyed(duck: Duck, table: string, source: string): Promise<void> {
  const staged = `${table}_staged`;
  const learn = KEYED_DIMENSIONS.map((d) => {
    const dictionary = dictionaryOf(table, d);
    return `INSERT INTO ${dictionary} SELECT value, (SELECT coalesce(max(key), 0) FROM ${dictionary}) + row_number() OVER () FROM (SELECT DISTINCT ${dimensionExpression(d)} AS value FROM ${staged}) n WHERE NOT EXISTS (SELECT 1 FROM ${dictionary} d WHERE d.value = n.value)`;
  });
  const joins = KEYED_DIMENSIONS.map(
    (d, i) => `JOIN ${dictionaryOf(table, d)} k${i} ON k${i}.value = ${dimensionExpression(d)}`,
  ).join(' ');
  const statements = [
    `CREATE OR REPLACE TEMP TABLE ${staged} AS ${source}`,
    ...learn,
    `INSERT INTO ${table} SELECT s.* EXCLUDE (id), ${KEYED_DIMENSIONS.map((_, i) => `k${i}.key`).join(', ')} FROM ${staged} s ${joins} ORDER BY s.ts`,
    `DROP TABLE ${staged}`,
  ];
  return writingDictionaries(duck, table, async () => {
    for (const statement of statements) await duck.run(statement);
  });
}

/**
 * What this process knows of each table's dictionaries: every write to them (a load's values, a
 * table made or dropped) runs through writingDictionaries, which numbers it. A table's moment is
 * the number of its latest write, taken while none is under way: the same moment later means its
 * dictionaries are as they were, so keys worked out then still hold (resolveKeys keeps them) and
 * a statement asked with them saw no key they lack (queryWithKeys).
 */
interface DictionaryState {
  writes: number;
  latest: Map<string, number>;
  underway: Map<string, number>;
  /** Keys worked out, by table and conditions, with the moment they were worked out at. */
  resolved: LRUCache<string, WorkedOut>;
}

const states = new WeakMap<Duck, DictionaryState>();

function stateOf(duck: Duck): DictionaryState {
  let state = states.get(duck);
  if (!state) {
    state = {
      writes: 0,
      latest: new Map(),
      underway: new Map(),
      resolved: new LRUCache({ max: 256 }),
    };
    states.set(duck, state);
  }
  return state;
}

/** Runs `work`, which writes `table`'s dictionaries (or makes or drops them), as such a write. */
export async function writingDictionaries<T>(
  duck: Duck,
  table: string,
  work: () => Promise<T>,
): Promise<T> {
  const state = stateOf(duck);
  state.writes += 1;
  state.latest.set(table, state.writes);
  state.underway.set(table, (state.underway.get(table) ?? 0) + 1);
  try {
    return await work();
  } finally {
    state.underway.set(table, state.underway.get(table)! - 1);
  }
}

/** The table's moment (see DictionaryState), or null while its dictionaries are being written. */
function momentOf(duck: Duck, table: string): number | null {
  const state = stateOf(duck);
  return state.underway.get(table) ? null : (state.latest.get(table) ?? 0);
}

type KeyedCondition = FilterCondition & { dimension: KeyedDimension };
const isKeyedCondition = (condition: FilterCondition): condition is KeyedCondition =>
  isKeyed(condition.dimension);

/** The conditions of a filter on keyed dimensions. */
function keyedConditions(filter: StatsFilter | null): KeyedCondition[] {
  if (filter === null) return [];
  if (isCondition(filter)) return isKeyedCondition(filter) ? [filter] : [];
  return filter.op === 'not'
    ? keyedConditions(filter.filter)
    : filter.filters.flatMap(keyedConditions);
}

/** The highest key of each dictionary, as rows of one statement (`c` the dimension's index). */
const highestKeys = (table: string, dimensions: readonly KeyedDimension[]) =>
  dimensions.map(
    (d, i) => `SELECT ${-1 - i} AS c, coalesce(max(key), 0) AS key FROM ${dictionaryOf(table, d)}`,
  );

/**
 * The keys each keyed condition of `filter` matches and the highest key of each dictionary they
 * read, read in one statement (one moment of the dictionaries); or, when the same conditions were
 * worked out at the table's present moment, as they were then.
 */
export async function resolveKeys(
  duck: Duck,
  table: string,
  filter: StatsFilter | null,
): Promise<ResolvedKeys> {
  const conditions = keyedConditions(filter);
  const moment = momentOf(duck, table);
  if (conditions.length === 0)
    return { table, moment, watermarks: new Map(), textAbove: false, conditions: new Map() };
  const { resolved } = stateOf(duck);
  const cacheKey = JSON.stringify([table, conditions]);
  const kept = resolved.get(cacheKey);
  if (kept && kept.moment === moment) return withConditions(kept, conditions);
  const dimensions = [...new Set(conditions.map((c) => c.dimension))];
  const params: SqlValue[] = [];
  const matches = conditions.map(
    (condition, i) =>
      `SELECT ${i} AS c, key FROM ${dictionaryOf(table, condition.dimension)} WHERE ${valueCondition(condition, params)}`,
  );
  const rows = await duck.query(
    [...highestKeys(table, dimensions), ...matches].join(' UNION ALL '),
    params,
  );
  const matched = conditions.map((): number[] => []);
  const watermarks = new Map<KeyedDimension, number>();
  for (const row of rows) {
    const c = Number(row.c);
    if (c < 0) watermarks.set(dimensions[-1 - c]!, Number(row.key));
    else matched[c]!.push(Number(row.key));
  }
  const found: WorkedOut = { table, moment, watermarks, matched };
  if (moment !== null) resolved.set(cacheKey, found);
  return withConditions(found, conditions);
}

/** Keys worked out, by the position of their condition among the filter's keyed conditions. */
interface WorkedOut {
  table: string;
  moment: number | null;
  watermarks: ReadonlyMap<KeyedDimension, number>;
  matched: readonly number[][];
}

const withConditions = (keys: WorkedOut, conditions: readonly KeyedCondition[]): ResolvedKeys => ({
  table: keys.table,
  moment: keys.moment,
  watermarks: keys.watermarks,
  textAbove: false,
  conditions: new Map(conditions.map((condition, i) => [condition, keys.matched[i]!])),
});

/**
 * Answers a statement compiled with the filter's keys (resolveKeys). First with the keys alone;
 * then, if a dictionary the conditions read learned a value meanwhile (a load ran between the
 * keys and the statement, and its rows may hold keys the conditions never saw), once more testing
 * such values as text. Exact either way: a load adds its values to the dictionaries before its
 * rows, so dictionaries that still end at their watermarks after the statement mean the
 * statement saw no row above them; and a table still at the keys' moment had no load at all.
 */
export async function queryWithKeys(
  duck: Duck,
  keys: ResolvedKeys,
  compile: (keys: ResolvedKeys) => CompiledQuery,
): Promise<{ compiled: CompiledQuery; rows: Array<Record<string, unknown>> }> {
  const compiled = compile(keys);
  const rows = await duck.query(compiled.sql, compiled.params);
  if (keys.moment !== null && momentOf(duck, keys.table) === keys.moment) return { compiled, rows };
  if (!(await learnedSince(duck, keys))) return { compiled, rows };
  const again = compile({ ...keys, textAbove: true });
  return { compiled: again, rows: await duck.query(again.sql, again.params) };
}

/** Whether a dictionary the conditions of `keys` read holds a key above its watermark. */
export async function learnedSince(duck: Duck, keys: ResolvedKeys): Promise<boolean> {
  const dimensions = [...keys.watermarks.keys()];
  if (dimensions.length === 0) return false;
  const rows = await duck.query(highestKeys(keys.table, dimensions).join(' UNION ALL '));
  return rows.some(
    (row) => Number(row.key) > keys.watermarks.get(dimensions[-1 - Number(row.c)]!)!,
  );
}
