import type { CodegenConfig } from '@graphql-codegen/cli';

// Paths are relative to the repository root, where `npm run generate` runs. The facade's persisted
// operations (and the fragments they share) as typed documents, against the API schema the
// gateway serves: the facade executes them by document and gets their data typed.
const config: CodegenConfig = {
  schema: 'gateway/api-schema.graphql',
  documents: ['rest-facade/operations/**/*.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'rest-facade/src/generated/operations.ts': {
      plugins: ['typescript', 'typescript-operations', 'typed-document-node'],
      config: {
        onlyOperationTypes: true,
        enumsAsTypes: true,
        useTypeImports: true,
        skipTypename: true,
        avoidOptionals: { field: true },
        scalars: { HeatmapCells: 'Array<[number, number, number]>', StatsQuery: 'unknown' },
      },
    },
  },
};

export default config;
