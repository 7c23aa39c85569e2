import { createHash } from 'node:crypto';
import {
  decimalValue,
  DuckDBDecimalType,
  DuckDBMapType,
  DuckDBTimestampValue,
  DuckDBVarCharType,
  mapValue,
  type DuckDBAppender,
} from '@duckdb/node-api';
import { DICTIONARY_COLUMNS, dictionariesOf, KEY_COLUMNS, writingDictionaries } from './dictionary';
import type { Duck } from './duck';
import { EVENT_FIELDS, type EventRow } from './event-rows';

const PROPS_TYPE = new DuckDBMapType(DuckDBVarCharType.instance, DuckDBVarCharType.instance);
const REVENUE_SCALE = 4;
const REVENUE_TYPE = new DuckDBDecimalType(18, REVENUE_SCALE);

/** A decimal string as DECIMAL(18, 4): its digits past the fourth decimal are cut off. */
export function revenueDecimal(amount: string) {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) throw new Error(`not a decimal amount: ${amount}`);
  const [, sign, whole, fraction = ''] = match;
  const scaled = BigInt(whole! + fraction.padEnd(REVENUE_SCALE, '0').slice(0, REVENUE_SCALE));
  return decimalValue(sign === '-' ? -scaled : scaled, 18, REVENUE_SCALE);
}

/** A website's table name (ids are 24 hex digits; anything else is hashed into the name). */
export function tableOf(websiteId: string): string {
  return /^[0-9a-f]{24}$/i.test(websiteId)
    ? `ev_${websiteId.toLowerCase()}`
    : `ev_x${createHash('sha256').update(websiteId).digest('hex').slice(0, 48)}`;
}

/** A website's table (event rows but their ids, and their keys) and its dictionaries (engine/dictionary.ts). */
export async function createEventTable(
  duck: Duck,
  table: string,
  { replace = false } = {},
): Promise<void> {
  const create = replace ? 'CREATE OR REPLACE TABLE' : 'CREATE TABLE IF NOT EXISTS';
  await writingDictionaries(duck, table, async () => {
    await duck.run(`${create} ${table} (${EVENT_FIELDS},\n  ${KEY_COLUMNS})`);
    for (const dictionary of dictionariesOf(table))
      await duck.run(`${create} ${dictionary} (${DICTIONARY_COLUMNS})`);
  });
}

/** Drops a website's table and its dictionaries. */
export async function dropEventTable(duck: Duck, table: string): Promise<void> {
  await writingDictionaries(duck, table, async () => {
    await duck.run(`DROP TABLE IF EXISTS ${table}`);
    for (const dictionary of dictionariesOf(table))
      await duck.run(`DROP TABLE IF EXISTS ${dictionary}`);
  });
}

/** Appends rows to a table of event columns only (one appender, flushed at the end). */
export async function appendRows(
  duck: Duck,
  table: string,
  rows: readonly EventRow[],
): Promise<void> {
  const appender = await duck.loading.createAppender(table);
  try {
    for (const row of rows) appendRow(appender, row);
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

const text = (appender: DuckDBAppender, value: string | null) =>
  value === null ? appender.appendNull() : appender.appendVarchar(value);

function appendRow(appender: DuckDBAppender, row: EventRow): void {
  appender.appendVarchar(row.id);
  appender.appendTimestamp(new DuckDBTimestampValue(BigInt(row.ts) * 1000n));
  appender.appendUBigInt(row.visitor);
  if (row.visit === null) appender.appendNull();
  else appender.appendUBigInt(row.visit);
  appender.appendVarchar(row.type);
  text(appender, row.name);
  appender.appendVarchar(row.page);
  text(appender, row.entryPage);
  text(appender, row.hostname);
  text(appender, row.source);
  text(appender, row.referrer);
  text(appender, row.utmSource);
  text(appender, row.utmMedium);
  text(appender, row.utmCampaign);
  text(appender, row.utmContent);
  text(appender, row.utmTerm);
  text(appender, row.country);
  text(appender, row.device);
  text(appender, row.browser);
  text(appender, row.os);
  appender.appendMap(mapValue(row.props.map(([key, value]) => ({ key, value }))), PROPS_TYPE);
  if (row.revenueAmount === null) appender.appendNull();
  else appender.appendValue(revenueDecimal(row.revenueAmount), REVENUE_TYPE);
  text(appender, row.revenueCurrency);
  appender.endRow();
}
