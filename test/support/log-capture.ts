import { Writable } from 'node:stream';

/** A pino line, parsed: every line has these, and whatever fields the call added. */
export interface LogRecord {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** A log destination for startStack that keeps every line, for tests that read the logs. */
export function captureLogs() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  /** The lines so far, parsed (each is one JSON object). */
  const records = <T extends object = LogRecord>(): T[] =>
    lines.map((line) => JSON.parse(line) as T);
  return { lines, sink, records };
}
