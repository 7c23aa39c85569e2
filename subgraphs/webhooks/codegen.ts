import type { CodegenConfig } from '@graphql-codegen/cli';

// Paths are relative to the repository root, where `npm run generate` runs; the context and
// mappers are relative to the generated file. Mappers name what each parent resolver receives.
const config: CodegenConfig = {
  schema: 'subgraphs/webhooks/schema.graphql',
  generates: {
    'subgraphs/webhooks/src/generated/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        federation: true,
        useTypeImports: true,
        enumsAsTypes: true,
        contextType: '../context#WebhooksContext',
        mappers: {
          Webhook: '../services/webhook.service#WebhookView',
          WebhookDelivery: '../services/delivery.service#DeliveryView',
          WebhookDeliveryAttempt: '../services/delivery.service#AttemptView',
          User: '{ id: string }',
        },
      },
    },
  },
};

export default config;
