import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { PERMISSIONS } from '../../../../common/contracts/identity';
import {
  GOAL_KINDS,
  MAX_GOAL_EVENT_NAME_LENGTH,
  MAX_GOAL_NAME_LENGTH,
  MAX_GOAL_PAGE_PATH_LENGTH,
} from '../../../../common/contracts/goals';
import { PLANS } from '../plans';

const organizationSchema = new Schema(
  {
    name: { type: String, required: true, trim: true, maxlength: 200 },
    plan: { type: String, enum: PLANS, required: true, default: 'free' },
    customLimits: {
      type: new Schema({ requestsPerMinute: Number, requestsPerMonth: Number }, { _id: false }),
      default: null,
    },
    /** When the payment processor created the last plan event applied; older ones are stale. */
    planEventAt: { type: Date, default: null },
  },
  { timestamps: true },
);

const userSchema = new Schema(
  { email: { type: String, required: true, trim: true, lowercase: true, maxlength: 320 } },
  { timestamps: true },
);
userSchema.index({ email: 1 }, { unique: true });

const membershipSchema = new Schema(
  {
    organizationId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    role: { type: String, enum: ['owner', 'admin', 'member'], required: true, default: 'member' },
  },
  { timestamps: true },
);
membershipSchema.index({ organizationId: 1, userId: 1 }, { unique: true });
membershipSchema.index({ userId: 1 });

const websiteSchema = new Schema(
  {
    organizationId: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true, trim: true, maxlength: 200 },
    domain: { type: String, required: true, trim: true, lowercase: true, maxlength: 253 },
    trackingCode: { type: String, required: true },
  },
  { timestamps: true },
);
websiteSchema.index({ trackingCode: 1 }, { unique: true });
websiteSchema.index({ organizationId: 1, createdAt: 1 });

/**
 * A website's goal (common/contracts/goals.ts): a page path pattern or a custom event name.
 * Validated and normalized by services/goal-definition.ts; only inserted and deleted, never
 * updated.
 */
const goalSchema = new Schema(
  {
    websiteId: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true, trim: true, maxlength: MAX_GOAL_NAME_LENGTH },
    kind: { type: String, enum: GOAL_KINDS, required: true },
    pagePath: { type: String, default: null, maxlength: MAX_GOAL_PAGE_PATH_LENGTH },
    eventName: { type: String, default: null, maxlength: MAX_GOAL_EVENT_NAME_LENGTH },
    currency: { type: String, default: null },
  },
  { timestamps: true },
);
goalSchema.index({ websiteId: 1, createdAt: 1 });

const apiKeySchema = new Schema(
  {
    organizationId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true, trim: true, maxlength: 200 },
    description: { type: String, default: null, maxlength: 2000 },
    /** SHA-256 of the key value, hex. The value itself is never stored. */
    secretHash: { type: String, required: true },
    prefix: { type: String, required: true },
    permissions: { type: [String], enum: PERMISSIONS, required: true },
    websiteAccess: { type: String, enum: ['all', 'selected'], required: true, default: 'all' },
    websiteIds: { type: [Schema.Types.ObjectId], default: [] },
    expiresAt: { type: Date, default: null },
    deletedAt: { type: Date, default: null },
  },
  { timestamps: true },
);
apiKeySchema.index({ secretHash: 1 }, { unique: true });
apiKeySchema.index({ organizationId: 1, createdAt: -1 });
apiKeySchema.index({ expiresAt: 1 });

const accessTokenSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true, trim: true, maxlength: 200 },
    secretHash: { type: String, required: true },
    prefix: { type: String, required: true },
    revokedAt: { type: Date, default: null },
    /** Dashboard sessions end on their own; other tokens live until revoked (null). */
    expiresAt: { type: Date, default: null },
    /** The tokens this one was created with (createAccessToken), oldest first: revoking any of them revokes it. */
    lineage: { type: [Schema.Types.ObjectId], default: [] },
  },
  { timestamps: true },
);
accessTokenSchema.index({ secretHash: 1 }, { unique: true });
accessTokenSchema.index({ userId: 1 });
accessTokenSchema.index({ lineage: 1 });

/** A one-time sign-in link: only the hash of its secret is kept; used once it has a claim. */
const loginLinkSchema = new Schema(
  {
    secretHash: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    expiresAt: { type: Date, required: true },
  },
  { timestamps: true },
);
loginLinkSchema.index({ secretHash: 1 }, { unique: true });

/**
 * The use of one sign-in link: `_id` is the link's id. Redeeming a link is inserting its claim,
 * which the primary key makes atomic on every engine (FerretDB 1.x's findOneAndDelete is not:
 * two concurrent redemptions could both get the link). Kept until the link would have expired.
 */
const loginLinkClaimSchema = new Schema({
  _id: { type: String, required: true },
  userId: { type: Schema.Types.ObjectId, required: true },
  claimedAt: { type: Date, required: true },
  expiresAt: { type: Date, required: true },
});

/**
 * The External API calls one key made within one call-log stream entry (a facade batch of up to
 * 5,000 calls): the bucket pattern. `_id` is `<batch id>:<key id>` (the facade's id for the batch,
 * the same when it appends a batch again; older entries used the stream entry id), so neither
 * redelivery nor a repeated append duplicates; each call's id is `<batch id>-<index in the
 * batch>`. One document per batch and key instead of one per call keeps logging cheap at the
 * External API's request rate; the calls are packed into one string field, as the facade sent
 * them (common/contracts/call-log.ts says why).
 */
const apiCallBucketSchema = new Schema({
  _id: { type: String, required: true },
  keyId: { type: String, default: null },
  firstAt: { type: Date, required: true },
  lastAt: { type: Date, required: true },
  /** The calls, packed (common/contracts/call-log.ts; services/call-log.packing.ts reads older forms). */
  packed: { type: String },
  /** The calls as sub-documents, in buckets stored before they were packed; read, never written. */
  calls: {
    default: undefined,
    type: [
      new Schema(
        {
          id: { type: String, required: true },
          at: { type: Date, required: true },
          method: { type: String, required: true },
          endpoint: { type: String, required: true },
          path: { type: String, required: true },
          status: { type: Number, required: true },
          ip: { type: String, required: true },
          durationMs: { type: Number, required: true },
          requestId: { type: String, default: null },
        },
        { _id: false },
      ),
    ],
  },
});
apiCallBucketSchema.index({ keyId: 1, lastAt: -1, _id: -1 });

/**
 * A key's use, `_id` the key's id: when it was last used and its side of the usage ledger, the
 * counts its call log holds (services/usage-ledger.ts). Kept apart from the key because it is a
 * hot write: FerretDB 1.x applies updates as read-modify-write of the whole document, so a write
 * to the key itself could write back a key deleted or regenerated meanwhile. Written by the
 * call-log consumer only, one batch at a time.
 */
const keyUseSchema = new Schema(
  {
    _id: { type: String, required: true },
    lastUsedAt: { type: Date, required: true },
    /** Calls counted for the key (X-Usage-Total), since the ledger began. */
    total: { type: Number, default: 0 },
    /** Calls per UTC day, `YYYY-MM-DD` → count, the last 31 days of use. */
    days: { type: Schema.Types.Mixed, default: () => ({}) },
    /** Ids of the last call-log batches counted here: a batch is counted once. */
    batches: { type: [String], default: [] },
  },
  { minimize: false },
);

/**
 * An organization's month in the usage ledger, `_id` `<organization id>|<YYYY-MM>`: the requests
 * its call log says were counted against the quota. Written by the call-log consumer only.
 */
const usageMonthSchema = new Schema(
  {
    _id: { type: String, required: true },
    requests: { type: Number, required: true, default: 0 },
    batches: { type: [String], default: [] },
  },
  { minimize: false },
);

/**
 * One expiry notice sent for a key: `_id` is `<keyId>:<daysBefore>`. Claiming a notice is an
 * insert, which the primary key makes atomic on every engine (FerretDB's conditional updates
 * are not atomic under concurrency; inserts against a unique key are). `pending` stays true
 * until the event is published, so a claimer that died in between is caught up on.
 */
const expiryNoticeSchema = new Schema({
  _id: { type: String, required: true },
  keyId: { type: String, required: true },
  daysBefore: { type: Number, required: true },
  sentAt: { type: Date, required: true },
  pending: { type: Boolean, default: false },
});
expiryNoticeSchema.index({ pending: 1, sentAt: 1 });

/** A payment-processor event already applied; `_id` is the processor's event id (idempotency). */
const paymentEventSchema = new Schema({
  _id: { type: String, required: true },
  organizationId: { type: String, required: true },
  plan: { type: String, required: true },
  appliedAt: { type: Date, required: true },
});

export type Organization = InferSchemaType<typeof organizationSchema>;
export type User = InferSchemaType<typeof userSchema>;
export type Membership = InferSchemaType<typeof membershipSchema>;
export type Website = InferSchemaType<typeof websiteSchema>;
export type Goal = InferSchemaType<typeof goalSchema>;
export type ApiKey = InferSchemaType<typeof apiKeySchema>;
export type AccessToken = InferSchemaType<typeof accessTokenSchema>;
export type LoginLink = InferSchemaType<typeof loginLinkSchema>;
export type LoginLinkClaim = InferSchemaType<typeof loginLinkClaimSchema>;
export type ApiCallBucket = InferSchemaType<typeof apiCallBucketSchema>;
export type KeyUse = InferSchemaType<typeof keyUseSchema>;
export type UsageMonth = InferSchemaType<typeof usageMonthSchema>;
export type ExpiryNotice = InferSchemaType<typeof expiryNoticeSchema>;
export type PaymentEvent = InferSchemaType<typeof paymentEventSchema>;

export interface KeysModels {
  Organization: Model<Organization>;
  User: Model<User>;
  Membership: Model<Membership>;
  Website: Model<Website>;
  Goal: Model<Goal>;
  ApiKey: Model<ApiKey>;
  AccessToken: Model<AccessToken>;
  LoginLink: Model<LoginLink>;
  LoginLinkClaim: Model<LoginLinkClaim>;
  ApiCallBucket: Model<ApiCallBucket>;
  KeyUse: Model<KeyUse>;
  UsageMonth: Model<UsageMonth>;
  ExpiryNotice: Model<ExpiryNotice>;
  PaymentEvent: Model<PaymentEvent>;
}

export function createKeysModels(connection: Connection): KeysModels {
  return {
    Organization: connection.model('Organization', organizationSchema),
    User: connection.model('User', userSchema),
    Membership: connection.model('Membership', membershipSchema),
    Website: connection.model('Website', websiteSchema),
    Goal: connection.model('Goal', goalSchema),
    ApiKey: connection.model('ApiKey', apiKeySchema),
    AccessToken: connection.model('AccessToken', accessTokenSchema),
    LoginLink: connection.model('LoginLink', loginLinkSchema),
    LoginLinkClaim: connection.model('LoginLinkClaim', loginLinkClaimSchema),
    ApiCallBucket: connection.model('ApiCallBucket', apiCallBucketSchema),
    KeyUse: connection.model('KeyUse', keyUseSchema),
    UsageMonth: connection.model('UsageMonth', usageMonthSchema),
    ExpiryNotice: connection.model('ExpiryNotice', expiryNoticeSchema),
    PaymentEvent: connection.model('PaymentEvent', paymentEventSchema),
  };
}
