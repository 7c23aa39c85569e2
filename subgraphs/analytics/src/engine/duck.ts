import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { SqlValue } from './stats-sql';

export interface DuckOptions {
  /** Threads DuckDB works a query with (default: the machine's cores). */
  threads?: number;
  /** What DuckDB may hold in memory before it spills to disk, e.g. "2GB". */
  memoryLimit?: string;
}

/**
 * The in-process DuckDB the engine runs on: in memory (its tables are a cache of the blocks in
 * MongoDB, engine/blocks.ts), one connection for reads, one for loading, so a load does not
 * wait behind a query's result being read, and one for transactions.
 */
export class Duck {
  /** Transactions run one at a time on a connection of their own (see `atomically`). */
  private transactions: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly reader: DuckDBConnection,
    private readonly writer: DuckDBConnection,
    private readonly transactor: DuckDBConnection,
  ) {}

  static async open(options: DuckOptions = {}): Promise<Duck> {
    const settings: Record<string, string> = {};
    if (options.threads) settings.threads = String(options.threads);
    if (options.memoryLimit) settings.memory_limit = options.memoryLimit;
    // Spilled data goes to the system's temporary folder: the default (.tmp in the working
    // directory) is read-only for the image's service user.
    settings.temp_directory = path.join(tmpdir(), `wa-duckdb-${process.pid}`);
    const instance = await DuckDBInstance.create(':memory:', settings);
    return new Duck(
      instance,
      await instance.connect(),
      await instance.connect(),
      await instance.connect(),
    );
  }

  /** Rows of a read, as objects keyed by column name (BIGINTs as numbers where they fit). */
  async query(
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<Array<Record<string, unknown>>> {
    const reader = await this.reader.runAndReadAll(sql, params as DuckDBValue[]);
    return reader.getRowObjectsJS() as Array<Record<string, unknown>>;
  }

  /** A statement that loads or changes tables. */
  async run(sql: string, params: readonly SqlValue[] = []): Promise<void> {
    await this.writer.run(sql, params as DuckDBValue[]);
  }

  /**
   * Statements that land together or not at all: a read sees the tables before or after them.
   * On a connection of their own, so that no other statement on the loading connection is caught
   * in the transaction.
   */
  atomically(statements: ReadonlyArray<readonly [string, readonly SqlValue[]]>): Promise<void> {
    const run = this.transactions.then(async () => {
      await this.transactor.run('BEGIN TRANSACTION');
      try {
        for (const [sql, params] of statements)
          await this.transactor.run(sql, params as DuckDBValue[]);
        await this.transactor.run('COMMIT');
      } catch (error) {
        await this.transactor.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
    this.transactions = run.catch(() => undefined);
    return run;
  }

  /** The loading connection, for appenders. */
  get loading(): DuckDBConnection {
    return this.writer;
  }

  close(): void {
    this.reader.closeSync();
    this.writer.closeSync();
    this.transactor.closeSync();
    this.instance.closeSync();
  }
}
