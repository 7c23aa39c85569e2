/**
 * Generates what the build derives from sources and keeps in the repository:
 * the composed supergraph, its API schema (what clients such as the dashboard see: no
 * federation or @inaccessible elements), the persisted-operation manifest, the typed GraphQL
 * documents of the dashboard and of the facade's persisted operations (GraphQL Code Generator,
 * from that API schema) and each subgraph's resolver types (GraphQL Code Generator, from its own
 * schema.graphql). Outputs Prettier does not ignore are formatted as Prettier would.
 * `--check` fails when either is stale or the subgraphs do not compose.
 */
import { composeServices } from '@apollo/composition';
import { generate as runCodegen, type CodegenConfig } from '@graphql-codegen/cli';
import { format, getFileInfo, resolveConfig } from 'prettier';
import dashboardCodegen from '../dashboard/codegen';
import facadeCodegen from '../rest-facade/codegen';
import analyticsCodegen from '../subgraphs/analytics/codegen';
import keysCodegen from '../subgraphs/keys/codegen';
import webhooksCodegen from '../subgraphs/webhooks/codegen';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse, printSchema } from 'graphql';
import { fromRoot } from '../common/platform/paths';
import { buildManifest, MANIFEST_PATH } from '../common/contracts/persisted-operations';

const SUBGRAPHS = [
  { name: 'analytics', url: 'http://127.0.0.1:4001/graphql', codegen: analyticsCodegen },
  { name: 'keys', url: 'http://127.0.0.1:4002/graphql', codegen: keysCodegen },
  { name: 'webhooks', url: 'http://127.0.0.1:4003/graphql', codegen: webhooksCodegen },
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

/** A generated file: where it goes and what it holds. */
interface Output {
  path: string;
  content: string;
}

/** The files a codegen config would write (nothing written). */
async function codegenOutputs(config: CodegenConfig): Promise<Output[]> {
  const files = (await runCodegen({ ...config, silent: true }, false)) as Array<{
    filename: string;
    content: string;
  }>;
  return Promise.all(
    files.map((file) => formatted({ path: fromRoot(file.filename), content: file.content })),
  );
}

/** The output as Prettier leaves it, unless .prettierignore lists it. */
async function formatted(output: Output): Promise<Output> {
  const { ignored } = await getFileInfo(output.path, { ignorePath: fromRoot('.prettierignore') });
  if (ignored) return output;
  const options = await resolveConfig(output.path);
  return {
    ...output,
    content: await format(output.content, { ...options, filepath: output.path }),
  };
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const { supergraph, apiSchema } = composeSupergraph();
  const outputs: Output[] = [
    { path: SUPERGRAPH_PATH, content: supergraph },
    { path: API_SCHEMA_PATH, content: apiSchema },
    { path: MANIFEST_PATH, content: `${JSON.stringify(buildManifest(), null, 2)}\n` },
  ];
  for (const { codegen } of SUBGRAPHS) outputs.push(...(await codegenOutputs(codegen)));
  // Typed against the API schema just composed: written first when it changed.
  if (!check) writeIfChanged({ path: API_SCHEMA_PATH, content: apiSchema });
  outputs.push(...(await codegenOutputs(dashboardCodegen)));
  outputs.push(...(await codegenOutputs(facadeCodegen)));
  let stale = 0;
  for (const output of outputs) {
    if (!check) writeIfChanged(output);
    else if (!isCurrent(output)) {
      console.error(`${output.path} is stale: run \`npm run generate\` and commit the result`);
      stale += 1;
    }
  }
  if (stale > 0) process.exit(1);
  if (check)
    console.log(
      "supergraph, API schema, persisted-operation manifest, the dashboard's and the facade's typed documents and the subgraphs' resolver types are up to date",
    );
}

const isCurrent = ({ path, content }: Output) =>
  existsSync(path) && readFileSync(path, 'utf8') === content;

function writeIfChanged({ path, content }: Output): void {
  if (isCurrent({ path, content })) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  console.log(`wrote ${path}`);
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
