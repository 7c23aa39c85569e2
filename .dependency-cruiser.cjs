/* global module */
/**
 * Boundaries between the services (`npm run lint` runs this; docs/architecture in README,
 * "What runs"). Shared code lives in `common/`, in two folders: `common/platform/` (infrastructure
 * and the subgraph runtime) and `common/contracts/` (what services exchange: collected events, the
 * call log, platform events, identity, plans, the analytics query vocabulary, website goals,
 * shared Redis keys, the persisted-operation manifest). A service reaches another only over
 * HTTP/GraphQL or through a contract, never by importing its internals.
 */
const SERVICES = [
  'rest-facade',
  'gateway',
  'subgraphs/analytics',
  'subgraphs/keys',
  'subgraphs/webhooks',
];

/** Every service but `own`, as a path pattern. */
const othersThan = (own) => `^(${SERVICES.filter((service) => service !== own).join('|')})/`;

module.exports = {
  forbidden: [
    ...SERVICES.map((service) => ({
      name: `no-reaching-into-other-services-from-${service.replace('/', '-')}`,
      comment: `${service} imports another service's internals; share a contract through common/contracts/ instead`,
      severity: 'error',
      from: { path: `^${service}/` },
      to: {
        path: othersThan(service),
        // The facade embeds the gateway's engine in its own process (docs/api.md, "The facade
        // runs the gateway's engine"): engine.ts and its settings, engine-config.ts, are that
        // engine's public entry.
        pathNot: service === 'rest-facade' ? '^gateway/src/engine(-config)?\\.ts$' : undefined,
      },
    })),
    {
      name: 'common-depends-on-no-service',
      comment:
        'common/ is shared by every service, script and test: it must not import any of them',
      severity: 'error',
      from: { path: '^common/' },
      to: { path: '^(rest-facade|gateway|subgraphs|dashboard|scripts|test)/' },
    },
    {
      name: 'platform-carries-no-messages',
      comment:
        'common/platform/ is infrastructure; the one contract it knows is the caller identity the subgraph runtime verifies',
      severity: 'error',
      from: { path: '^common/platform/' },
      to: { path: '^common/contracts/', pathNot: '^common/contracts/identity\\.ts$' },
    },
    {
      name: 'services-do-not-import-scripts-or-tests',
      severity: 'error',
      from: { path: `^(${SERVICES.join('|')}|common)/` },
      to: { path: '^(scripts|test)/' },
    },
    {
      name: 'dashboard-is-a-client',
      comment: 'the dashboard speaks GraphQL to the gateway; it imports no server code',
      severity: 'error',
      from: { path: '^dashboard/src/' },
      to: { path: `^(${SERVICES.join('|')}|common|scripts)/` },
    },
    {
      name: 'analytics-reads-through-the-read-model',
      comment:
        'only the read model (services/read-model.ts and its record-reads.ts) reads the hot tier, the day index, the snapshots and the cold windows; the write path (ingest, day lifecycle, retention) keeps them',
      severity: 'error',
      from: {
        path: '^subgraphs/analytics/src/(services|resolvers)/',
        pathNot:
          '^subgraphs/analytics/src/services/(read-model|record-reads|ingest\\.service|day-lifecycle|retention\\.service)\\.ts$',
      },
      to: {
        path: '^subgraphs/analytics/src/store/(hot-query|hot-day|hot-applier|hot-writes|snapshots|windows|raw-log|day-index)\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: `^(${SERVICES.join('|')}|common)/` },
      // A type-only import back is not a load-order cycle.
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|generated|gql)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
