import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import {
  buildManifest,
  FRAGMENTS_DIR,
  readManifest,
} from '../../common/contracts/persisted-operations';
import { fromRoot } from '../../common/platform/paths';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary operations folder holding `files` (paths relative to it), removed after the test. */
function operationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'operations-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), `${text}\n`);
  }
  return dir;
}

const PAGE = 'fragment Page on Pagination {\n  limit\n  ...More\n}';
const MORE = 'fragment More on Pagination {\n  hasMore\n}';
const SITE = 'fragment Site on Website {\n  id\n}';

describe('persisted-operation manifest', () => {
  it('when an operation spreads a fragment that spreads another, then its body holds both, by name, after it', () => {
    const operation = 'query Sites {\n  websites {\n    ...Site\n  }\n}';
    const paged = 'query Paged {\n  x {\n    pagination {\n      ...Page\n    }\n  }\n}';
    const dir = operationsDir({
      'Sites.graphql': operation,
      'Paged.graphql': paged,
      [`${FRAGMENTS_DIR}/Page.graphql`]: PAGE,
      [`${FRAGMENTS_DIR}/More.graphql`]: MORE,
      [`${FRAGMENTS_DIR}/Site.graphql`]: SITE,
    });

    const { operations } = buildManifest(dir);

    expect(operations.map((op) => [op.name, op.body])).toEqual([
      ['Paged', `${paged}\n\n${MORE}\n\n${PAGE}`],
      ['Sites', `${operation}\n\n${SITE}`],
    ]);
  });

  it('when an operation spreads a fragment no file defines, then the manifest is refused', () => {
    const dir = operationsDir({
      'Sites.graphql': 'query Sites {\n  websites {\n    ...Gone\n  }\n}',
    });

    expect(() => buildManifest(dir)).toThrow('Sites.graphql: no fragment Gone');
  });

  it('when a fragment file is named after another fragment, then the manifest is refused', () => {
    const dir = operationsDir({ [`${FRAGMENTS_DIR}/Other.graphql`]: SITE });

    expect(() => buildManifest(dir)).toThrow('Other.graphql: fragment must be named Other');
  });

  it('when the committed manifest is read, then every body is a valid document of the API schema the gateway serves', () => {
    const schema = buildSchema(readFileSync(fromRoot('gateway', 'api-schema.graphql'), 'utf8'));

    for (const op of readManifest().operations)
      expect([op.name, validate(schema, parse(op.body)).map((e) => e.message)]).toEqual([
        op.name,
        [],
      ]);
  });
});
