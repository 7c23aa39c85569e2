import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

/** Running totals per website, maintained with `$inc` upserts at write time. */
const websiteTotalsSchema = new Schema(
  {
    websiteId: { type: String, required: true },
    pageviews: { type: Number, required: true, default: 0 },
    /** Stream id of the last ingest batch applied here; makes a retried batch skip it. */
    lastBatch: { type: String, default: null },
  },
  { timestamps: true },
);
websiteTotalsSchema.index({ websiteId: 1 }, { unique: true });

/**
 * Raw events as collected, kept for `ANALYTICS_RETENTION_DAYS` (clean-up job in
 * retention.service.ts; FerretDB has no TTL index). `_id` is the Redis stream entry id, which
 * makes re-applying a batch after a crash a no-op.
 */
const eventSchema = new Schema(
  {
    _id: { type: String, required: true },
    websiteId: { type: String, required: true },
    type: { type: String, required: true },
    ts: { type: Date, required: true },
    visitorId: { type: String, required: true },
    path: { type: String, required: true },
    payload: { type: Schema.Types.Mixed, default: null },
  },
  {},
);
eventSchema.index({ ts: 1 });
eventSchema.index({ websiteId: 1, ts: 1 });

/**
 * Pre-aggregated counters: one document per website, granularity, bucket start, dimension and
 * value. Reads fetch the buckets of a range, never events. The website totals (`dim: ''`) live in
 * their own collection (`stattotals`), so the overview reads a collection holding only totals —
 * which matters on engines that scan rather than use the index (FerretDB's SQLite backend).
 */
const statSchema = new Schema(
  {
    websiteId: { type: String, required: true },
    granularity: { type: String, enum: ['hour', 'day'], required: true },
    bucket: { type: Date, required: true },
    dim: { type: String, default: '' },
    value: { type: String, default: '' },
    pageviews: { type: Number, default: 0 },
    visitors: { type: Number, default: 0 },
    sessions: { type: Number, default: 0 },
    bounces: { type: Number, default: 0 },
    /** Seconds, summed over sessions that started in this bucket. */
    duration: { type: Number, default: 0 },
    events: { type: Number, default: 0 },
    /** Stream id of the last ingest batch applied here; makes a retried batch skip it. */
    lastBatch: { type: String, default: null },
  },
  {},
);
statSchema.index({ websiteId: 1, granularity: 1, dim: 1, bucket: 1, value: 1 }, { unique: true });

const sessionStateSchema = new Schema(
  {
    startHour: { type: Date, required: true },
    startDay: { type: Date, required: true },
    entryPath: { type: String, required: true },
    source: { type: String, required: true },
    pageviews: { type: Number, required: true },
  },
  { _id: false },
);

/**
 * One visitor of one website for one UTC day (the visitor id rotates with the daily salt).
 * Holds the state the write path needs (current session, what was already counted as unique).
 */
const visitorSchema = new Schema(
  {
    websiteId: { type: String, required: true },
    visitorId: { type: String, required: true },
    firstSeen: { type: Date, required: true },
    lastSeen: { type: Date, required: true },
    lastPageviewAt: { type: Date, default: null },
    pageviews: { type: Number, default: 0 },
    sessions: { type: Number, default: 0 },
    country: { type: String, default: null },
    device: { type: String, default: null },
    browser: { type: String, default: null },
    os: { type: String, default: null },
    screenWidth: { type: Number, default: null },
    screenHeight: { type: Number, default: null },
    entryPath: { type: String, default: null },
    lastPath: { type: String, default: null },
    session: { type: sessionStateSchema, default: null },
    seenDay: { type: [String], default: [] },
    seenHour: { type: [String], default: [] },
    seenHourBucket: { type: Date, default: null },
    /** Stream id of the last ingest batch applied here; makes a retried batch skip it. */
    lastBatch: { type: String, default: null },
  },
  {},
);
visitorSchema.index({ websiteId: 1, visitorId: 1 }, { unique: true });
// Visitor pages: filter by website, walk in first-seen order (immutable, so paging is stable).
visitorSchema.index({ websiteId: 1, firstSeen: 1, _id: 1 });
visitorSchema.index({ websiteId: 1, lastSeen: 1 });

/** Click counts per page and day, on a grid: x in percent of the viewport width, y in 50px rows. */
const heatmapSchema = new Schema(
  {
    websiteId: { type: String, required: true },
    path: { type: String, required: true },
    day: { type: Date, required: true },
    clicks: { type: Number, default: 0 },
    cells: { type: Schema.Types.Mixed, default: {} },
    /** Stream id of the last ingest batch applied here; makes a retried batch skip it. */
    lastBatch: { type: String, default: null },
  },
  { minimize: false },
);
heatmapSchema.index({ websiteId: 1, path: 1, day: 1 }, { unique: true });

const errorGroupSchema = new Schema(
  {
    websiteId: { type: String, required: true },
    fingerprint: { type: String, required: true },
    message: { type: String, required: true },
    stack: { type: String, default: null },
    count: { type: Number, default: 0 },
    visitors: { type: Number, default: 0 },
    firstSeen: { type: Date, required: true },
    lastSeen: { type: Date, required: true },
    lastPath: { type: String, default: null },
    /** Stream id of the last ingest batch applied here; makes a retried batch skip it. */
    lastBatch: { type: String, default: null },
  },
  {},
);
errorGroupSchema.index({ websiteId: 1, fingerprint: 1 }, { unique: true });

const replaySessionSchema = new Schema(
  {
    websiteId: { type: String, required: true },
    sessionId: { type: String, required: true },
    visitorId: { type: String, required: true },
    startedAt: { type: Date, required: true },
    lastActivity: { type: Date, required: true },
    chunks: { type: Number, default: 0 },
    bytes: { type: Number, default: 0 },
    entryPath: { type: String, required: true },
    country: { type: String, default: null },
    device: { type: String, default: null },
    browser: { type: String, default: null },
    os: { type: String, default: null },
    /** Stream id of the last ingest batch applied here; makes a retried batch skip it. */
    lastBatch: { type: String, default: null },
  },
  {},
);
replaySessionSchema.index({ websiteId: 1, sessionId: 1 }, { unique: true });
replaySessionSchema.index({ websiteId: 1, startedAt: -1, _id: -1 });

const replayChunkSchema = new Schema(
  {
    websiteId: { type: String, required: true },
    sessionId: { type: String, required: true },
    sequence: { type: Number, required: true },
    ts: { type: Date, required: true },
    data: { type: String, required: true },
    /** Stream id of the last ingest batch applied here; makes a retried batch skip it. */
    lastBatch: { type: String, default: null },
  },
  {},
);
replayChunkSchema.index({ websiteId: 1, sessionId: 1, sequence: 1 }, { unique: true });
replayChunkSchema.index({ ts: 1 });

export type WebsiteTotals = InferSchemaType<typeof websiteTotalsSchema>;
export type RawEvent = InferSchemaType<typeof eventSchema>;
export type Stat = InferSchemaType<typeof statSchema>;
export type Visitor = InferSchemaType<typeof visitorSchema>;
export type HeatmapPage = InferSchemaType<typeof heatmapSchema>;
export type ErrorGroup = InferSchemaType<typeof errorGroupSchema>;
export type ReplaySession = InferSchemaType<typeof replaySessionSchema>;
export type ReplayChunk = InferSchemaType<typeof replayChunkSchema>;

export interface AnalyticsModels {
  WebsiteTotals: Model<WebsiteTotals>;
  Event: Model<RawEvent>;
  Stat: Model<Stat>;
  StatTotal: Model<Stat>;
  Visitor: Model<Visitor>;
  Heatmap: Model<HeatmapPage>;
  ErrorGroup: Model<ErrorGroup>;
  ReplaySession: Model<ReplaySession>;
  ReplayChunk: Model<ReplayChunk>;
}

export function createAnalyticsModels(connection: Connection): AnalyticsModels {
  return {
    WebsiteTotals: connection.model('WebsiteTotals', websiteTotalsSchema),
    Event: connection.model('Event', eventSchema),
    Stat: connection.model('Stat', statSchema),
    StatTotal: connection.model('StatTotal', statSchema.clone()),
    Visitor: connection.model('Visitor', visitorSchema),
    Heatmap: connection.model('Heatmap', heatmapSchema),
    ErrorGroup: connection.model('ErrorGroup', errorGroupSchema),
    ReplaySession: connection.model('ReplaySession', replaySessionSchema),
    ReplayChunk: connection.model('ReplayChunk', replayChunkSchema),
  };
}

/** The collection holding a dimension's counters: totals apart from the breakdowns. */
export const statModelOf = (models: AnalyticsModels, dim: string): Model<Stat> =>
  dim === '' ? models.StatTotal : models.Stat;

export async function syncAnalyticsIndexes(models: AnalyticsModels): Promise<void> {
  await Promise.all(Object.values(models).map((model: Model<unknown>) => model.createIndexes()));
}
