/**
 * Checks that every reference in the docs resolves: the relative links and images of every
 * Markdown file (README.md, docs/*.md, …) reach an existing file and, with a `#fragment`, one of
 * its headings; and every `docs/<name>.md` citation, in the Markdown files and in the TypeScript of
 * common/, gateway/src, rest-facade/src, subgraphs/<name>/src, scripts/, test/ and dashboard/src, names an existing
 * file and, when a quoted heading follows (`docs/api.md, "Errors"`), one of its headings or bold
 * paragraph labels. The rules: scripts/lib/doc-links.ts. Prints each broken reference as
 * `file:line: message` and exits 1 if there is any. `npm run check:docs`.
 */
import { fromRoot } from '../common/platform/paths';
import { checkDocReferences, projectDocSources } from './lib/doc-links';

function main(): void {
  const sources = projectDocSources(fromRoot());
  const { checked, broken } = checkDocReferences(sources);
  for (const { file, line, message } of broken) console.log(`${file}:${line}: ${message}`);
  const { markdownFiles, sourceFiles } = sources;
  const read = `${markdownFiles.length} Markdown and ${sourceFiles.length} TypeScript files`;
  if (broken.length === 0) {
    console.log(`check:docs: all ${checked} references resolve (${read})`);
    return;
  }
  console.log(`check:docs: ${broken.length} of ${checked} references broken (${read})`);
  process.exitCode = 1;
}

try {
  main();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
