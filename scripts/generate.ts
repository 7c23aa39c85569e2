/**
 * Generates what the build derives from sources and keeps in the repository:
 * the composed supergraph, its API schema (what clients such as the dashboard see: no
 * federation or @inaccessible elements), the persisted-operation manifest and the dashboard's
 * typed GraphQL documents (GraphQL Code Generator, from that API schema).
 * `--check` fails when either is stale or the subgraphs do not compose.
 */
import { composeServices } from '@apollo/composition';
import { generate as generateDocuments } from '@graphql-codegen/cli';
import dashboardCodegen from '../dashboard/codegen';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parse, printSchema } from 'graphql';
import { fromRoot } from '../common/paths';
import { buildManifest, MANIFEST_PATH } from '../common/persisted-operations';

const SUBGRAPHS = [
  { name: 'analytics', url: 'http://127.0.0.1:4001/graphql' },
  { name: 'keys', url: 'http://127.0.0.1:4002/graphql' },
  { name: 'webhooks', url: 'http://127.0.0.1:4003/graphql' },
];
export const SUPERGRAPH_PATH = fromRoot('gateway', 'supergraph.graphql');
export const API_SCHEMA_PATH = fromRoot('gateway', 'api-schema.graphql');

function composeSupergraph(): { supergraph: string; apiSchema: string } {
  const result = composeServices(
    SUBGRAPHS.map(({ name, url }) => ({
      name,
      url,
      typeDefs: parse(readFileSync(fromRoot('subgraphs', name, 'schema.graphql'), 'utf8')),
    })),
  );
  if (result.errors) {
    throw new Error(
      `the subgraphs do not compose:\n${result.errors.map((e) => `  - ${e.message}`).join('\n')}`,
    );
  }
  return {
    supergraph: `${result.supergraphSdl.trim()}\n`,
    apiSchema: `${printSchema(result.schema.toAPISchema().toGraphQLJSSchema()).trim()}\n`,
  };
}

/** The dashboard's typed documents as the codegen config would write them (nothing written). */
async function dashboardDocuments(): Promise<Array<{ path: string; content: string }>> {
  const files = (await generateDocuments({ ...dashboardCodegen, silent: true }, false)) as Array<{
    filename: string;
    content: string;
  }>;
  return files.map((file) => ({ path: fromRoot(file.filename), content: file.content }));
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const { supergraph, apiSchema } = composeSupergraph();
  const outputs = [
    { path: SUPERGRAPH_PATH, content: supergraph },
    { path: API_SCHEMA_PATH, content: apiSchema },
    { path: MANIFEST_PATH, content: `${JSON.stringify(buildManifest(), null, 2)}\n` },
  ];
  // Typed against the API schema just composed: written first when it changed.
  if (!check) writeIfChanged(outputs[1]!);
  outputs.push(...(await dashboardDocuments()));
  let stale = 0;
  for (const { path, content } of outputs) {
    const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (current === content) continue;
    if (check) {
      console.error(`${path} is stale: run \`npm run generate\` and commit the result`);
      stale += 1;
    } else writeIfChanged({ path, content });
  }
  if (stale > 0) process.exit(1);
  if (check)
    console.log(
      "supergraph, API schema, persisted-operation manifest and the dashboard's typed documents are up to date",
    );
}

function writeIfChanged({ path, content }: { path: string; content: string }): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return;
  writeFileSync(path, content);
  console.log(`wrote ${path}`);
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
