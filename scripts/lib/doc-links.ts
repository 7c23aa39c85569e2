/**
 * The references in the docs that do not resolve. Two kinds are read:
 *
 * - Markdown links and images with a relative target (`[text](../x.md#heading)`, `![alt](img.png)`,
 *   `[label]: x.md`), outside fenced code blocks and code spans: the file must exist, relative to
 *   the Markdown file (or to the root when the target starts with `/`), and a `#fragment` into a
 *   Markdown file must be GitHub's anchor of one of its ATX (`#`) headings. A bare `#fragment`
 *   points into the file itself.
 * - Citations written as text, in Markdown and in TypeScript (comments and strings alike, since the
 *   OpenAPI descriptions cite the docs too): `docs/<name>.md`, taken from the root, optionally
 *   followed by a quoted title (`docs/api.md "Errors"`, `docs/api.md, "Errors"`) that may wrap onto
 *   the next comment line. The title must be that of a heading or of a bold label opening a
 *   paragraph or list item (`**Durability.** An event…`, which the docs cite as sections),
 *   compared without case, inline markup or trailing punctuation.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface BrokenReference {
  /** Relative to the root, with `/` separators. */
  file: string;
  line: number;
  message: string;
}

export interface DocSources {
  root: string;
  /** Relative to root: files whose links and citations are checked. */
  markdownFiles: string[];
  /** Relative to root: files whose citations are checked. */
  sourceFiles: string[];
}

/** What a citation may name: a heading, or the bold label that opens a paragraph or list item. */
export interface Section {
  title: string;
  /** GitHub's anchor of a heading, with -1, -2… for repeats; a label has none. */
  anchor: string | undefined;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
/** `**Durability.** An event…`, `- **Per-minute window:** fixed…`. */
const BOLD_LABEL = /^ {0,3}(?:[-*+][ \t]+|\d+[.)][ \t]+)?\*\*([^*]+)\*\*/;
const CODE_SPAN = /(`+)[^`]*?\1/g;
const INLINE_LINK_TARGET = /\]\(\s*(<[^>\n]*>|[^)\s]+)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)/;
/** A scheme (`https:`, `mailto:`) or a protocol-relative URL: not a file of the repository. */
const EXTERNAL_TARGET = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;
/**
 * `docs/<name>.md`, not inside a longer path nor a link's target, then optionally a quoted heading
 * after a comma or whitespace that may cross a line break and its comment marker (` * `, `//`).
 */
const CITATION =
  /(?<![\w./-])(?<!\]\()(docs\/[\w./-]*?\.md)\b(?:,?\s(?:\s|\*(?!\/)|\/\/){0,20}"([^"]{1,200})")?/g;
const COMMENT_CONTINUATION = /\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g;

/** The lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): Array<{ text: string; line: number }> {
  const lines: Array<{ text: string; line: number }> = [];
  let openFence: string | undefined;
  markdown.split(/\r?\n/).forEach((text, index) => {
    const fence = FENCE.exec(text)?.[1];
    if (openFence !== undefined) {
      const closes =
        fence !== undefined &&
        fence[0] === openFence[0] &&
        fence.length >= openFence.length &&
        text.trim() === fence;
      if (closes) openFence = undefined;
      return;
    }
    if (fence !== undefined) {
      openFence = fence;
      return;
    }
    lines.push({ text, line: index + 1 });
  });
  return lines;
}

/** A title as a reader sees it: without code marks, emphasis or link syntax. */
const plainText = (markup: string) =>
  markup
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim();

/** GitHub's anchor for a heading (as github-slugger makes it, before repeats are numbered). */
export function headingSlug(markup: string): string {
  return plainText(markup)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The headings and bold labels of a Markdown text, in order; headings with GitHub's anchors. */
export function markdownSections(markdown: string): Section[] {
  const repeats = new Map<string, number>();
  const sections: Section[] = [];
  for (const { text } of proseLines(markdown)) {
    const heading = ATX_HEADING.exec(text)?.[1];
    if (heading === undefined) {
      const label = BOLD_LABEL.exec(text)?.[1];
      if (label !== undefined) sections.push({ title: plainText(label), anchor: undefined });
      continue;
    }
    const base = headingSlug(heading);
    let anchor = base;
    while (repeats.has(anchor)) {
      const count = (repeats.get(base) ?? 0) + 1;
      repeats.set(base, count);
      anchor = `${base}-${count}`;
    }
    repeats.set(anchor, 0);
    sections.push({ title: plainText(heading), anchor });
  }
  return sections;
}

/** The link and image targets of a Markdown text, outside code. */
export function markdownLinkTargets(markdown: string): Array<{ target: string; line: number }> {
  const targets: Array<{ target: string; line: number }> = [];
  for (const { text, line } of proseLines(markdown)) {
    const withoutCode = text.replace(CODE_SPAN, '');
    const found = [...withoutCode.matchAll(INLINE_LINK_TARGET)].map((m) => m[1] ?? '');
    const definition = REFERENCE_DEFINITION.exec(withoutCode)?.[1];
    if (definition !== undefined) found.push(definition);
    for (const target of found) targets.push({ target: target.replace(/^<|>$/g, ''), line });
  }
  return targets;
}

/** The `docs/<name>.md` citations of a text (Markdown or source), with their quoted titles. */
export function docCitations(
  text: string,
): Array<{ file: string; heading: string | undefined; line: number }> {
  return [...text.matchAll(CITATION)].map((m) => ({
    file: m[1] ?? '',
    heading: m[2]?.replace(COMMENT_CONTINUATION, ' ').trim(),
    line: text.slice(0, m.index).split('\n').length,
  }));
}

/** How a section's title is compared with a cited one. */
const comparable = (heading: string) =>
  plainText(heading)
    .replace(/\s+/g, ' ')
    .replace(/[.,:;!?]+$/, '')
    .toLowerCase();

/** The decoded form of a URL's part; as it is when it is not valid percent-encoding. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** `compute`, called once per key. */
function memoized<T>(compute: (key: string) => T): (key: string) => T {
  const values = new Map<string, T>();
  return (key) => {
    if (!values.has(key)) values.set(key, compute(key));
    return values.get(key) as T;
  };
}

/** Checks every reference of the sources; `checked` counts the references read. */
export function checkDocReferences(sources: DocSources): {
  checked: number;
  broken: BrokenReference[];
} {
  const read = memoized((absolute) => readFileSync(absolute, 'utf8'));
  const sectionsOf = memoized((absolute) => markdownSections(read(absolute)));
  const shown = (absolute: string) =>
    path.relative(sources.root, absolute).split(path.sep).join('/');

  const broken: BrokenReference[] = [];
  let checked = 0;

  const checkLink = (file: string, target: string, line: number) => {
    if (EXTERNAL_TARGET.test(target)) return;
    checked += 1;
    const [pathAndQuery = '', fragment] = target.split('#', 2);
    const targetPath = decoded(pathAndQuery.split('?')[0] ?? '');
    const from = path.join(sources.root, file);
    const absolute =
      targetPath === ''
        ? from
        : targetPath.startsWith('/')
          ? path.join(sources.root, targetPath)
          : path.resolve(path.dirname(from), targetPath);
    const report = (message: string) => broken.push({ file, line, message });
    if (!existsSync(absolute)) return report(`link ${target}: no file ${shown(absolute)}`);
    if (fragment === undefined || !absolute.endsWith('.md')) return;
    const anchor = decoded(fragment);
    if (!sectionsOf(absolute).some((section) => section.anchor === anchor))
      report(`link ${target}: ${shown(absolute)} has no heading with the anchor #${anchor}`);
  };

  const checkCitations = (file: string) => {
    for (const citation of docCitations(read(path.join(sources.root, file)))) {
      checked += 1;
      const absolute = path.join(sources.root, citation.file);
      const report = (message: string) => broken.push({ file, line: citation.line, message });
      if (!existsSync(absolute)) {
        report(`${citation.file}: no such file`);
        continue;
      }
      if (citation.heading === undefined) continue;
      const wanted = comparable(citation.heading);
      const titles = sectionsOf(absolute).map((section) => section.title);
      if (titles.some((title) => comparable(title) === wanted)) continue;
      const near = titles.filter((title) => comparable(title).includes(wanted));
      report(
        `${citation.file}: no heading or bold label "${citation.heading}"` +
          (near.length > 0 ? `; did you mean ${near.map((t) => `"${t}"`).join(' or ')}?` : ''),
      );
    }
  };

  for (const file of sources.markdownFiles) {
    for (const { target, line } of markdownLinkTargets(read(path.join(sources.root, file))))
      checkLink(file, target, line);
    checkCitations(file);
  }
  for (const file of sources.sourceFiles) checkCitations(file);
  return { checked, broken };
}

/** Git pathspecs of the files read: the Markdown files, and the TypeScript that cites them. */
const PROJECT_MARKDOWN = ['*.md'];
const PROJECT_SOURCES = [
  'common/*.ts',
  'gateway/src/*.ts',
  'rest-facade/src/*.ts',
  'subgraphs/*/src/*.ts',
  'scripts/*.ts',
  'test/*.ts',
  // Its fixtures cite files that do not exist, on purpose.
  ':(exclude)test/unit/doc-links.test.ts',
  'dashboard/src/*.ts',
  'dashboard/src/*.tsx',
];

/** Tracked files, and new ones git does not ignore (so not node_modules or dist), that match. */
function repositoryFiles(root: string, pathspecs: string[]): string[] {
  const result = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...pathspecs],
    { cwd: root, encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new Error(
      `git ls-files failed (exit ${result.status ?? result.signal}): ${result.stderr}`,
    );
  return [...new Set(result.stdout.split('\0'))].filter(
    (file) => file !== '' && existsSync(path.join(root, file)),
  );
}

/** The project's files to check, found with git. */
export function projectDocSources(root: string): DocSources {
  return {
    root,
    markdownFiles: repositoryFiles(root, PROJECT_MARKDOWN),
    sourceFiles: repositoryFiles(root, PROJECT_SOURCES),
  };
}
