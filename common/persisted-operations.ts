import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, type OperationDefinitionNode } from 'graphql';
import { fromRoot } from './paths';

export const OPERATIONS_DIR = fromRoot('rest-facade', 'operations');
export const MANIFEST_PATH = fromRoot('rest-facade', 'persisted-operations.json');

export interface PersistedOperation {
  id: string;
  name: string;
  type: 'query' | 'mutation' | 'subscription';
  body: string;
}

/** Apollo's persisted query manifest format, so standard tooling can read it. */
export interface OperationManifest {
  format: 'apollo-persisted-query-manifest';
  version: 1;
  operations: PersistedOperation[];
}

export const operationId = (body: string) => createHash('sha256').update(body).digest('hex');

/** Builds the manifest from the `.graphql` files: one named operation per file. */
export function buildManifest(dir = OPERATIONS_DIR): OperationManifest {
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.graphql'))
        .sort()
    : [];
  const operations = files.map((file) => {
    const body = readFileSync(path.join(dir, file), 'utf8').trim();
    const definitions = parse(body).definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
    );
    const [definition] = definitions;
    if (definitions.length !== 1 || !definition?.name)
      throw new Error(`${file}: must hold exactly one named operation`);
    if (`${definition.name.value}.graphql` !== file)
      throw new Error(`${file}: operation must be named ${file.replace('.graphql', '')}`);
    return { id: operationId(body), name: definition.name.value, type: definition.operation, body };
  });
  return { format: 'apollo-persisted-query-manifest', version: 1, operations };
}

export function readManifest(file = MANIFEST_PATH): OperationManifest {
  return JSON.parse(readFileSync(file, 'utf8')) as OperationManifest;
}
