import type { CodegenConfig } from '@graphql-codegen/cli';

// Paths are relative to the repository root, where `npm run generate` runs; the context and
// mappers are relative to the generated file. Mappers name what each parent resolver receives.
const config: CodegenConfig = {
  schema: 'subgraphs/analytics/schema.graphql',
  generates: {
    'subgraphs/analytics/src/generated/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        federation: true,
        useTypeImports: true,
        enumsAsTypes: true,
        contextType: '../context#AnalyticsContext',
        scalars: { HeatmapCells: 'Array<[number, number, number]>', StatsQuery: 'unknown' },
        mappers: { Website: '../resolvers/parents#WebsiteRef' },
      },
    },
  },
};

export default config;
