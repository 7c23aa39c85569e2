/**
 * The names of a website's rollup tables: the day rows, the same summed per UTC month (`day` is
 * then the month's first day) and over spans of days (engine/day-rollups.ts).
 */
export interface RollupTables {
  events: string;
  visits: string;
  eventMonths: string;
  visitMonths: string;
  /** Rows summed over runs of whole days (`day` the first, `span_to` the end): spans. */
  eventSpans: string;
  visitSpans: string;
}

/** A website's rollup tables, beside its event table. */
export const rollupTablesOf = (eventTable: string): RollupTables => ({
  events: `${eventTable}_days`,
  visits: `${eventTable}_visits`,
  eventMonths: `${eventTable}_months`,
  visitMonths: `${eventTable}_visit_months`,
  eventSpans: `${eventTable}_spans`,
  visitSpans: `${eventTable}_visit_spans`,
});

/** A kind of rollup's tables of days, of months and of spans. */
export const rollupTablesOfKind = (kind: 'events' | 'visits', tables: RollupTables) =>
  kind === 'events'
    ? { days: tables.events, months: tables.eventMonths, spans: tables.eventSpans }
    : { days: tables.visits, months: tables.visitMonths, spans: tables.visitSpans };
