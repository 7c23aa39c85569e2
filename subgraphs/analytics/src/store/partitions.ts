import type { Connection, mongo } from 'mongoose';
import { DAY_MS } from '../ingest/time-buckets';

/**
 * Collections partitioned by time (`<base>YYYYMM` or `<base>YYYYMMDD`), written by insert and read
 * by `_id` only. Partitioning keeps every collection the hot paths touch bounded by one month's
 * (or day's) data however much history is stored — FerretDB's SQLite backend finds even an `_id`
 * by scanning its table — and retention drops whole partitions instead of deleting documents.
 */
export class Partitions<TSchema extends mongo.Document = mongo.Document> {
  constructor(
    private readonly connection: Connection,
    private readonly base: string,
    private readonly span: 'month' | 'day',
  ) {}

  nameAt(ms: number): string {
    const iso = new Date(ms).toISOString();
    const month = `${iso.slice(0, 4)}${iso.slice(5, 7)}`;
    return `${this.base}${this.span === 'month' ? month : `${month}${iso.slice(8, 10)}`}`;
  }

  at(ms: number) {
    return this.connection.collection<TSchema>(this.nameAt(ms));
  }

  /** Start (ms) of the span a partition name stands for, or null for other collections. */
  private startOf(name: string): number | null {
    if (!name.startsWith(this.base)) return null;
    const digits = name.slice(this.base.length);
    const match =
      this.span === 'month'
        ? /^(\d{4})(\d{2})$/.exec(digits)
        : /^(\d{4})(\d{2})(\d{2})$/.exec(digits);
    if (!match) return null;
    return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3] ?? 1));
  }

  /** Drops every partition whose whole span ends before `cutoff`; returns their names. */
  async dropEndingBefore(cutoff: number): Promise<string[]> {
    const db = this.connection.db;
    if (!db) throw new Error('not connected');
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    const expired = names.filter((name) => {
      const start = this.startOf(name);
      if (start === null) return false;
      const end =
        this.span === 'day'
          ? start + DAY_MS
          : Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth() + 1, 1);
      return end <= cutoff;
    });
    for (const name of expired) await db.dropCollection(name);
    return expired;
  }
}
