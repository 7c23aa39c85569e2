import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { MAX_URL_LENGTH } from '../domain/destination-policy';

const webhookSchema = new Schema(
  {
    userId: { type: String, required: true },
    url: { type: String, required: true, maxlength: MAX_URL_LENGTH },
    description: { type: String, default: null, maxlength: 500 },
    eventTypes: { type: [String], default: [] },
    status: {
      type: String,
      enum: ['active', 'disabled', 'revoked'],
      required: true,
      default: 'active',
    },
    /** The signing secret, encrypted at rest; never returned after creation or rotation. */
    secretCiphertext: { type: String, required: true },
    secretRotatedAt: { type: Date, default: null },
    disabledAt: { type: Date, default: null },
    /** Why the webhook stopped, for instance a 410 from the receiver. */
    disabledReason: { type: String, default: null },
    /** When the first attempt failed since the last one that succeeded (null: not failing). */
    failingSince: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
    /** Analytics alert settings (domain/alert-settings.ts); absent on webhooks made before them. */
    alerts: {
      type: new Schema(
        {
          websiteIds: { type: [String], default: null },
          spikeRatio: { type: Number, required: true },
          dropRatio: { type: Number, required: true },
          reportHour: { type: Number, required: true },
          goalEvery: { type: Number, default: null },
        },
        { _id: false },
      ),
      default: null,
    },
  },
  { timestamps: true },
);
webhookSchema.index({ userId: 1, createdAt: 1 });

const attemptSchema = new Schema(
  {
    attempt: { type: Number, required: true },
    at: { type: Date, required: true },
    statusCode: { type: Number, default: null },
    durationMs: { type: Number, required: true },
    error: { type: String, default: null },
    responseBody: { type: String, default: '' },
  },
  { _id: false },
);

const deliverySchema = new Schema(
  {
    /** Derived from the event id and the webhook id, so a re-read stream entry maps to the same delivery. */
    _id: { type: String, required: true },
    webhookId: { type: String, required: true },
    userId: { type: String, required: true },
    event: {
      id: { type: String, required: true },
      type: { type: String, required: true },
      createdAt: { type: String, required: true },
      organizationId: { type: String, default: null },
      data: { type: Schema.Types.Mixed, default: {} },
    },
    status: {
      type: String,
      enum: ['pending', 'succeeded', 'failed', 'cancelled'],
      required: true,
      default: 'pending',
    },
    attempts: { type: [attemptSchema], default: [] },
    nextAttemptAt: { type: Date, default: null },
    /** Test deliveries are sent once, synchronously, and never retried. */
    test: { type: Boolean, default: false },
    /**
     * The attempt after which a failure is final, where it is not the configured number of
     * attempts: a recovered delivery is attempted once (DeliveryService.recover).
     */
    finalAttempt: { type: Number, default: null },
  },
  { timestamps: true, minimize: false },
);
deliverySchema.index({ webhookId: 1, createdAt: -1 });
/** For the hourly clean-up of old finished deliveries (DeliveryRetention). */
deliverySchema.index({ createdAt: 1 });
/**
 * For the sweep of overdue pending deliveries (DeliveryService.requeueOverdue). A plain compound
 * index: FerretDB 1.x has no partial indexes, and finished deliveries sort apart by status.
 */
deliverySchema.index({ status: 1, nextAttemptAt: 1 });

export type Webhook = InferSchemaType<typeof webhookSchema>;
export type WebhookDelivery = InferSchemaType<typeof deliverySchema>;

export interface WebhooksModels {
  Webhook: Model<Webhook>;
  WebhookDelivery: Model<WebhookDelivery>;
}

export function createWebhooksModels(connection: Connection): WebhooksModels {
  return {
    Webhook: connection.model('Webhook', webhookSchema),
    WebhookDelivery: connection.model('WebhookDelivery', deliverySchema),
  };
}
