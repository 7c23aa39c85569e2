import type { Connection } from 'mongoose';
import { onlyDuplicateKeys } from '../../../../common/platform/duplicate-keys';
import type { CollectedEvent } from '../../../../common/contracts/collected-event';
import { dayStartOf, type DayKey } from './hot-keys';
import { Partitions } from './partitions';
import { compareStreamIds } from './stream-ids';

/** A collected event with the stream id it arrived under. */
export interface LoggedEvent {
  id: string;
  event: CollectedEvent;
}

type StoredEvent = {
  /** The event's id (its stream id for events collected before events had ids). */
  _id: string;
  /** The stream id it was applied under (absent where it is `_id`). */
  sid?: string;
  websiteId: string;
  type: string;
  ts: Date;
  visitorId: string;
  path: string;
  payload: Record<string, unknown>;
};

/** A replay chunk: `_id` is its website, session and sequence, so a chunk sent again is stored once. */
type StoredChunk = { _id: string; ts: Date; data: unknown };

/**
 * Raw events, written once (`_id` = the event's id, so an event applied again, under the same
 * stream entry or appended anew after Redis lost it, is stored once) in one collection per UTC day
 * (`analytics_events_YYYYMMDD`), and replay chunks (`_id` = website, session and sequence: a chunk
 * sent again is stored once) per month (`analytics_replaychunks_YYYYMM`). Both are dropped a whole
 * partition at a time after the retention period. The raw events are what a day's hot tier is
 * rebuilt from after Redis lost it; a raw replay event keeps the size of its chunk instead of the
 * data.
 */
export class RawLog {
  private readonly events: Partitions<StoredEvent>;
  private readonly chunks: Partitions<StoredChunk>;

  constructor(connection: Connection) {
    this.events = new Partitions<StoredEvent>(connection, 'analytics_events_', 'day');
    this.chunks = new Partitions<StoredChunk>(connection, 'analytics_replaychunks_', 'month');
  }

  /**
   * Stores a batch's raw events and replay chunks. Returns the stream ids of the entries whose
   * event was stored before under another stream entry: an event the collector appended again
   * after Redis lost the stream, which the hot tier has already (its day was rebuilt from this
   * store). An entry stored by an earlier attempt of the same batch is not among them.
   */
  async append(batch: LoggedEvent[]): Promise<Set<string>> {
    const byDay = new Map<string, StoredEvent[]>();
    const chunksByMonth = new Map<string, StoredChunk[]>();
    for (const { id, event } of batch) {
      const name = this.events.nameAt(event.ts);
      const list = byDay.get(name) ?? [];
      list.push(toStored(id, event));
      byDay.set(name, list);
      if (event.type === 'replay') {
        const month = this.chunks.nameAt(event.ts);
        const chunks = chunksByMonth.get(month) ?? [];
        chunks.push({
          _id: `${event.websiteId}|${event.sessionId}|${event.sequence}`,
          ts: new Date(event.ts),
          data: event.data,
        });
        chunksByMonth.set(month, chunks);
      }
    }
    const storedBefore = new Set<string>();
    await Promise.all([
      ...[...byDay].map(async ([, docs]) => {
        const collection = this.events.at(docs[0]!.ts.getTime());
        const refused = await skippingDuplicates(docs, (rest) =>
          collection.insertMany(rest, { ordered: false }),
        );
        for (const id of await this.storedUnderOtherEntries(collection, refused))
          storedBefore.add(id);
      }),
      ...[...chunksByMonth].map(([, docs]) =>
        skippingDuplicates(docs, (rest) =>
          this.chunks.at(docs[0]!.ts.getTime()).insertMany(rest, { ordered: false }),
        ),
      ),
    ]);
    return storedBefore;
  }

  /**
   * Of events refused as already stored, the stream ids of those stored under another entry. Read
   * by `_id` only when an insert was refused: a retried batch or an event appended again.
   */
  private async storedUnderOtherEntries(
    collection: ReturnType<Partitions<StoredEvent>['at']>,
    refused: StoredEvent[],
  ): Promise<string[]> {
    if (refused.length === 0) return [];
    const stored = await collection
      .find<Pick<StoredEvent, '_id' | 'sid'>>(
        { _id: { $in: refused.map((doc) => doc._id) } },
        { projection: { sid: 1 } },
      )
      .toArray();
    const entryOf = new Map(stored.map((doc) => [doc._id, doc.sid ?? doc._id]));
    return refused
      .filter((doc) => entryOf.has(doc._id) && entryOf.get(doc._id) !== (doc.sid ?? doc._id))
      .map((doc) => doc.sid ?? doc._id);
  }

  /** A website's raw events of one UTC day, in stream order (a day's partition is read whole). */
  async eventsOf(website: string, day: DayKey): Promise<LoggedEvent[]> {
    const docs = await this.events.at(dayStartOf(day)).find({ websiteId: website }).toArray();
    return docs
      .map((doc) => ({ id: doc.sid ?? doc._id, event: fromStored(doc) }))
      .sort((a, b) => compareStreamIds(a.id, b.id));
  }

  async dropBefore(cutoff: number): Promise<{ events: string[]; replayChunks: string[] }> {
    return {
      events: await this.events.dropEndingBefore(cutoff),
      replayChunks: await this.chunks.dropEndingBefore(cutoff),
    };
  }
}

function toStored(id: string, event: CollectedEvent): StoredEvent {
  const { eventId, websiteId, type, ts, visitorId, path, ...rest } = event;
  const payload: Record<string, unknown> = { ...rest };
  if (type === 'replay') {
    delete payload.data;
    payload.bytes = Buffer.byteLength(event.data);
  }
  // Entries collected before property names were validated may hold names MongoDB refuses.
  if (type === 'event' && event.props) payload.props = storableProps(event.props);
  const ids = eventId ? { _id: eventId, sid: id } : { _id: id };
  return { ...ids, websiteId, type, ts: new Date(ts), visitorId, path, payload };
}

/** A raw event as the aggregation reads it; a replay chunk comes back with its size, not its data. */
function fromStored(doc: StoredEvent): CollectedEvent {
  return {
    ...doc.payload,
    ...(doc.sid ? { eventId: doc._id } : {}),
    websiteId: doc.websiteId,
    type: doc.type,
    ts: new Date(doc.ts).getTime(),
    visitorId: doc.visitorId,
    path: doc.path,
    ...(doc.type === 'replay' ? { data: '' } : {}),
  } as CollectedEvent;
}

/**
 * Writes `items` (unordered), going on past duplicate-key refusals, and returns the items refused
 * as already stored. FerretDB ends an unordered bulk write at its first error, MongoDB goes on: so
 * whatever follows the last refusal is submitted again (harmless, a refused item is one already
 * stored).
 */
async function skippingDuplicates<T>(
  items: T[],
  write: (rest: T[]) => Promise<unknown>,
): Promise<T[]> {
  const refused: T[] = [];
  let offset = 0;
  while (offset < items.length) {
    try {
      await write(items.slice(offset));
      return refused;
    } catch (error) {
      // Anything but documents already stored (by an earlier attempt) is a real failure.
      const indexes = onlyDuplicateKeys(error);
      if (!indexes?.length) throw error;
      for (const index of indexes) refused.push(items[offset + index]!);
      offset += Math.max(...indexes) + 1;
    }
  }
  return refused;
}

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Property names MongoDB refuses as field names ('.' anywhere, '$' first, NUL), stored escaped.
 * Lone surrogates become U+FFFD here, as UTF-8 encoding would make them anyway, so two names that
 * differ only there collapse into one instead of a duplicate field the database refuses.
 */
export function storableProps(
  props: Record<string, string | number | boolean>,
): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Object.entries(props).map(([name, value]) => [
      name
        .replace(LONE_SURROGATES, '\ufffd')
        .replaceAll('\u0000', '\u2400')
        .replace(/\./g, '\uff0e')
        .replace(/^\$/, '\uff04'),
      value,
    ]),
  );
}
