import type { CodegenConfig } from '@graphql-codegen/cli';

// Paths are relative to the repository root, where `npm run generate:dashboard` runs.
const config: CodegenConfig = {
  schema: 'gateway/api-schema.graphql',
  documents: ['dashboard/src/**/*.{ts,tsx}', '!dashboard/src/gql/**'],
  ignoreNoDocuments: false,
  generates: {
    'dashboard/src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { HeatmapCells: 'unknown', StatsQuery: 'unknown' },
      },
    },
  },
};

export default config;
