import { Writable } from 'node:stream';

/** A log destination for startStack that keeps every line, for tests that read the logs. */
export function captureLogs() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, sink };
}
