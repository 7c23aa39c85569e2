import {
  isCondition,
  type FilterCondition,
  type StatsFilter,
} from '../../../../common/contracts/stats-query';
import type { Duck } from './duck';
import {
  dimensionExpression,
  isKeyed,
  KEYED_DIMENSIONS,
  keyColumn,
  valueCondition,
  type CompiledQuery,
  type ResolvedKeys,
  type SqlValue,
} from './stats-sql';

/**
 * A website table's dictionary: every value of a keyed dimension (stats-sql.ts KEYED_DIMENSIONS),
 * as rows show it, with an integer key the table holds beside the text. Keys are handed out in
 * increasing order as loads meet new values and never change or return, so a value learned after
 * a query worked out its keys has a key above that query's watermark (see queryWithKeys). Loads run one at a time
 * (engine/blocks.ts), which is what makes `max(key) + row_number()` a safe way to hand them out.
 */
export const dictionaryOf = (table: string): string => `${table}_dict`;

/** The key columns of a website's table, after the event fields (engine/event-rows.ts). */
export const KEY_COLUMNS = KEYED_DIMENSIONS.map((d) => `${keyColumn(d)} INTEGER`).join(',\n  ');

export const DICTIONARY_COLUMNS = 'dimension VARCHAR, value VARCHAR, key INTEGER';

/**
 * The statements that append the event rows of `source` (a query over event columns, ids
 * included) to a website's table: their new values into the dictionary, then the rows with their keys, in time
 * order (so that a range reads only the row groups it covers).
 */
export function keyedInsert(table: string, source: string): string[] {
  const dictionary = dictionaryOf(table);
  const staged = `${table}_staged`;
  const values = KEYED_DIMENSIONS.map(
    (d) => `SELECT DISTINCT '${d}' AS dimension, ${dimensionExpression(d)} AS value FROM ${staged}`,
  ).join(' UNION ALL ');
  const joins = KEYED_DIMENSIONS.map(
    (d, i) =>
      `JOIN ${dictionary} k${i} ON k${i}.dimension = '${d}' AND k${i}.value = ${dimensionExpression(d)}`,
  ).join(' ');
  return [
    `CREATE OR REPLACE TEMP TABLE ${staged} AS ${source}`,
    `INSERT INTO ${dictionary} SELECT dimension, value, (SELECT coalesce(max(key), 0) FROM ${dictionary}) + row_number() OVER () FROM (${values}) n WHERE NOT EXISTS (SELECT 1 FROM ${dictionary} d WHERE d.dimension = n.dimension AND d.value = n.value)`,
    `INSERT INTO ${table} SELECT s.* EXCLUDE (id), ${KEYED_DIMENSIONS.map((_, i) => `k${i}.key`).join(', ')} FROM ${staged} s ${joins} ORDER BY s.ts`,
    `DROP TABLE ${staged}`,
  ];
}

/** The conditions of a filter on keyed dimensions. */
function keyedConditions(filter: StatsFilter | null): FilterCondition[] {
  if (filter === null) return [];
  if (isCondition(filter)) return isKeyed(filter.dimension) ? [filter] : [];
  return filter.op === 'not'
    ? keyedConditions(filter.filter)
    : filter.filters.flatMap(keyedConditions);
}

/**
 * The keys each keyed condition of `filter` matches and the dictionary's highest key, read in
 * one statement (one moment of the dictionary).
 */
export async function resolveKeys(
  duck: Duck,
  table: string,
  filter: StatsFilter | null,
): Promise<ResolvedKeys> {
  const dictionary = dictionaryOf(table);
  const conditions = keyedConditions(filter);
  const params: SqlValue[] = [];
  const matches = conditions.map((condition, i) => {
    const dimension = `$${params.push(condition.dimension)}`;
    return `SELECT ${i} AS c, key FROM ${dictionary} WHERE dimension = ${dimension} AND ${valueCondition(condition, params)}`;
  });
  const rows = await duck.query(
    [`SELECT -1 AS c, coalesce(max(key), 0) AS key FROM ${dictionary}`, ...matches].join(
      ' UNION ALL ',
    ),
    params,
  );
  const matched = conditions.map((): number[] => []);
  let watermark = 0;
  for (const row of rows) {
    const c = Number(row.c);
    if (c < 0) watermark = Number(row.key);
    else matched[c]!.push(Number(row.key));
  }
  return {
    dictionary,
    watermark,
    textAbove: false,
    conditions: new Map(conditions.map((condition, i) => [condition, matched[i]!])),
  };
}

/**
 * Answers a statement compiled with the filter's keys (resolveKeys). First with the keys alone; then, if the
 * dictionary learned a value meanwhile (a load ran between the keys and the statement, and its
 * rows may hold keys the conditions never saw), once more testing such values as text. Exact
 * either way: a load adds its values to the dictionary before its rows, so a dictionary that still
 * ends at the watermark after the statement means the statement saw no row above it.
 */
export async function queryWithKeys(
  duck: Duck,
  keys: ResolvedKeys,
  compile: (keys: ResolvedKeys) => CompiledQuery,
): Promise<{ compiled: CompiledQuery; rows: Array<Record<string, unknown>> }> {
  const compiled = compile(keys);
  const rows = await duck.query(compiled.sql, compiled.params);
  if (keys.conditions.size === 0 || !(await learnedSince(duck, keys))) return { compiled, rows };
  const again = compile({ ...keys, textAbove: true });
  return { compiled: again, rows: await duck.query(again.sql, again.params) };
}

/** Whether the dictionary holds a key above the watermark of `keys`. */
export async function learnedSince(duck: Duck, keys: ResolvedKeys): Promise<boolean> {
  const [row] = await duck.query(`SELECT coalesce(max(key), 0) AS key FROM ${keys.dictionary}`);
  return Number(row?.key) > keys.watermark;
}
