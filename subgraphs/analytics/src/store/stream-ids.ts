/**
 * A stream id (`<ms>-<seq>`) padded so that ids compare as strings in stream order: the applied
 * marker and a snapshot's `sealedThrough` are stored this way.
 */
export function orderedStreamId(streamId: string): string {
  const [ms = '0', seq = '0'] = streamId.split('-');
  return `${ms.padStart(15, '0')}-${seq.padStart(10, '0')}`;
}

/** Stream ids (`<ms>-<seq>`) in stream order. */
export function compareStreamIds(a: string, b: string): number {
  return orderedStreamId(a) < orderedStreamId(b)
    ? -1
    : orderedStreamId(a) > orderedStreamId(b)
      ? 1
      : 0;
}
