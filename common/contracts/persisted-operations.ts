import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  Kind,
  parse,
  visit,
  type ASTNode,
  type DefinitionNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import { fromRoot } from '../platform/paths';

export const OPERATIONS_DIR = fromRoot('rest-facade', 'operations');
/** Fragments the operations share, one per file, under OPERATIONS_DIR. */
export const FRAGMENTS_DIR = 'fragments';
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

/** A `.graphql` file holding one definition, named after the file. */
interface DefinitionFile<T> {
  file: string;
  name: string;
  text: string;
  definition: T;
}

/** The `.graphql` files of `dir`, by name, each with its one definition of `kind`. */
function readDefinitions<T extends OperationDefinitionNode | FragmentDefinitionNode>(
  dir: string,
  kind: T['kind'],
): Array<DefinitionFile<T>> {
  const what = kind === Kind.FRAGMENT_DEFINITION ? 'fragment' : 'named operation';
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.graphql'))
        .sort()
    : [];
  return files.map((file) => {
    const text = readFileSync(path.join(dir, file), 'utf8').trim();
    const definitions = parse(text).definitions;
    const [definition] = definitions;
    if (definitions.length !== 1 || !isDefinition<T>(definition, kind) || !definition.name)
      throw new Error(`${file}: must hold exactly one ${what}`);
    const name = definition.name.value;
    if (`${name}.graphql` !== file)
      throw new Error(`${file}: ${what} must be named ${file.replace('.graphql', '')}`);
    return { file, name, text, definition };
  });
}

const isDefinition = <T extends DefinitionNode>(
  node: DefinitionNode | undefined,
  kind: T['kind'],
): node is T => node?.kind === kind;

/** Names of the fragments a definition spreads itself. */
function spreadsOf(node: ASTNode): string[] {
  const names = new Set<string>();
  visit(node, {
    FragmentSpread: (spread) => {
      names.add(spread.name.value);
    },
  });
  return [...names];
}

/**
 * Builds the manifest from the `.graphql` files: one named operation per file in `dir`, one
 * fragment per file in `dir/fragments`. An operation's body is its own text followed by the text of
 * every fragment it uses, directly or through another fragment, by name: the whole document the
 * gateway parses when a caller sends only the id.
 */
export function buildManifest(dir = OPERATIONS_DIR): OperationManifest {
  const fragments = new Map(
    readDefinitions<FragmentDefinitionNode>(
      path.join(dir, FRAGMENTS_DIR),
      Kind.FRAGMENT_DEFINITION,
    ).map((fragment) => [fragment.name, fragment]),
  );
  const operations = readDefinitions<OperationDefinitionNode>(dir, Kind.OPERATION_DEFINITION).map(
    ({ file, name, text, definition }) => {
      const used = new Map<string, string>();
      const use = (spreads: string[]) => {
        for (const spread of spreads) {
          const fragment = fragments.get(spread);
          if (!fragment) throw new Error(`${file}: no fragment ${spread} in ${FRAGMENTS_DIR}/`);
          if (used.has(spread)) continue;
          used.set(spread, fragment.text);
          use(spreadsOf(fragment.definition));
        }
      };
      use(spreadsOf(definition));
      const texts = [...used].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, t]) => t);
      const body = [text, ...texts].join('\n\n');
      return { id: operationId(body), name, type: definition.operation, body };
    },
  );
  return { format: 'apollo-persisted-query-manifest', version: 1, operations };
}

export function readManifest(file = MANIFEST_PATH): OperationManifest {
  return JSON.parse(readFileSync(file, 'utf8')) as OperationManifest;
}
