import type { CodegenConfig } from '@graphql-codegen/cli';

// Paths are relative to the repository root, where `npm run generate` runs; the context and
// mappers are relative to the generated file. Mappers name what each parent resolver receives.
const config: CodegenConfig = {
  schema: 'subgraphs/keys/schema.graphql',
  generates: {
    'subgraphs/keys/src/generated/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        federation: true,
        useTypeImports: true,
        enumsAsTypes: true,
        contextType: '../context#KeysContext',
        mappers: {
          Organization: '../services/account.service#OrganizationView',
          User: '../services/account.service#UserView',
          Membership: '../services/account.service#MembershipView',
          Website: '../services/account.service#WebsiteView',
          Goal: '../services/goal.service#GoalView',
          ApiKey: '../services/credential.service#ApiKeyView',
          Viewer: '../resolvers/parents#ViewerParent',
          ResolvedCredential: '../services/credential.service#StoredCredential',
        },
      },
    },
  },
};

export default config;
