import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { insertKeyed } from './dictionary';
import type { Duck } from './duck';
import { EVENT_COLUMNS, type EventRow } from './event-rows';
import { appendRows } from './event-table';

/**
 * Blocks: immutable columnar files of event rows (Parquet, zstd), the form events are kept in for
 * the engine. A batch's rows of one website and day are a block in the hot tier (Redis, beside the
 * day's counters); a sealed day's rows are one block in MongoDB (engine/sealed-blocks.ts). DuckDB
 * writes and reads them through files of its own temporary folder: it reads Parquet from files
 * only.
 */
export class BlockCodec {
  private readonly folder = mkdtempSync(path.join(tmpdir(), 'wa-blocks-'));
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly duck: Duck) {}

  /** The rows as one block. */
  encode(rows: readonly EventRow[]): Promise<Buffer> {
    return this.serially(async () => {
      const table = `enc_${randomUUID().replaceAll('-', '')}`;
      const file = path.join(this.folder, `${table}.parquet`);
      await this.duck.run(`CREATE TEMP TABLE ${table} (${EVENT_COLUMNS})`);
      try {
        await appendRows(this.duck, table, rows);
        await this.duck.run(
          `COPY (SELECT * FROM ${table} ORDER BY ts) TO '${file}' (FORMAT parquet, COMPRESSION zstd)`,
        );
        return await readFile(file);
      } finally {
        await this.duck.run(`DROP TABLE IF EXISTS ${table}`);
        await rm(file, { force: true });
      }
    });
  }

  /** Several blocks as one (a sealed day from its batches), in time order. */
  merge(blocks: readonly Buffer[]): Promise<Buffer> {
    return this.serially(async () => {
      const files = await this.write(blocks);
      const out = path.join(this.folder, `merged_${randomUUID()}.parquet`);
      try {
        await this.duck.run(
          `COPY (SELECT * FROM read_parquet(${sqlList(files)}) ORDER BY ts) TO '${out}' (FORMAT parquet, COMPRESSION zstd)`,
        );
        return await readFile(out);
      } finally {
        await Promise.all([...files, out].map((file) => rm(file, { force: true })));
      }
    });
  }

  /**
   * Appends the blocks' rows to a website's `table` with their keys (engine/dictionary.ts), each
   * visitor as itself on its UTC day: visitor ids rotate daily (the collector's salt), and keyed
   * so, a visitor counted per day and summed is the same as counted over the range, which is what
   * lets day rollups (engine/day-rollups.ts) answer exactly, whatever ids a test or an import
   * reuses across days. A few megabytes of blocks at a time: each such part is put in time order
   * and keyed in memory, where all of a large website's days at once would spill to disk.
   */
  load(table: string, blocks: readonly Buffer[]): Promise<void> {
    if (blocks.length === 0) return Promise.resolve();
    return this.serially(async () => {
      for (const part of inParts(blocks, LOAD_PART_BYTES)) {
        const files = await this.write(part);
        try {
          const rows = `SELECT * REPLACE (hash(visitor, date_trunc('day', ts)) AS visitor) FROM read_parquet(${sqlList(files)})`;
          await insertKeyed(this.duck, table, rows);
        } finally {
          await Promise.all(files.map((file) => rm(file, { force: true })));
        }
      }
    });
  }

  close(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }

  private async write(blocks: readonly Buffer[]): Promise<string[]> {
    return Promise.all(
      blocks.map(async (block) => {
        const file = path.join(this.folder, `${randomUUID()}.parquet`);
        await writeFile(file, block);
        return file;
      }),
    );
  }

  /** One at a time: the loading connection runs one statement after another anyway. */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Blocks loaded in one statement at most (a day of 100,000 events is about 2 MB). */
const LOAD_PART_BYTES = 8 * 1024 * 1024;

/** Consecutive blocks in parts of at most `bytes` (a larger block alone). */
function inParts(blocks: readonly Buffer[], bytes: number): Buffer[][] {
  const parts: Buffer[][] = [];
  let size = Infinity;
  for (const block of blocks) {
    if (size + block.length > bytes) {
      parts.push([]);
      size = 0;
    }
    parts[parts.length - 1]!.push(block);
    size += block.length;
  }
  return parts;
}

/** File names are ours (a folder of our own and UUIDs): quoted, never a caller's text. */
const sqlList = (files: readonly string[]) => `[${files.map((f) => `'${f}'`).join(', ')}]`;
