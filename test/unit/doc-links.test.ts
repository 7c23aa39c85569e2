import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../common/platform/paths';
import {
  checkDocReferences,
  docCitations,
  headingSlug,
  markdownSections,
  projectDocSources,
  type BrokenReference,
} from '../../scripts/lib/doc-links';

const GUIDE = [
  '# Guide',
  '',
  '## Setup',
  '',
  '**Durability.** An event is counted once.',
  '',
  '## Setup',
  '',
  '```sh',
  '# not a heading',
  'see [the code](nowhere.md)',
  '```',
  '',
  '## Usage: `npm run x`',
  '',
].join('\n');

const shown = ({ file, line, message }: BrokenReference) => `${file}:${line}: ${message}`;

describe('check:docs (scripts/lib/doc-links.ts)', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  /** A repository of `files` in a temporary folder, checked: its broken references as text. */
  function brokenIn(files: Record<string, string>): string[] {
    const root = mkdtempSync(path.join(tmpdir(), 'doc-links-'));
    roots.push(root);
    for (const [file, text] of Object.entries({ 'docs/guide.md': GUIDE, ...files })) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    const names = Object.keys(files);
    return checkDocReferences({
      root,
      markdownFiles: names.filter((name) => name.endsWith('.md')),
      sourceFiles: names.filter((name) => name.endsWith('.ts')),
    }).broken.map(shown);
  }

  it('when a link reaches an existing file and heading, then nothing is reported', () => {
    const readme = [
      'See [the guide](docs/guide.md), [setup](docs/guide.md#setup),',
      '[usage](./docs/guide.md#usage-npm-run-x) and [the top](#title).',
      '',
      '# Title',
    ].join('\n');
    expect(brokenIn({ 'README.md': readme })).toEqual([]);
  });

  it('when a link names a missing file, then it is reported with its line', () => {
    expect(brokenIn({ 'README.md': 'Intro.\n\nSee [limits](docs/limits.md).\n' })).toEqual([
      'README.md:3: link docs/limits.md: no file docs/limits.md',
    ]);
  });

  it('when a link names a missing heading, then it is reported', () => {
    expect(brokenIn({ 'docs/other.md': 'See [it](guide.md#install).\n' })).toEqual([
      'docs/other.md:1: link guide.md#install: docs/guide.md has no heading with the anchor #install',
    ]);
  });

  it('when a heading repeats, then its second anchor ends in -1 and there is no -2', () => {
    expect(markdownSections(GUIDE).flatMap((s) => (s.anchor ? [s.anchor] : []))).toEqual([
      'guide',
      'setup',
      'setup-1',
      'usage-npm-run-x',
    ]);
    expect(
      brokenIn({ 'docs/other.md': '[second](guide.md#setup-1), [third](guide.md#setup-2)\n' }),
    ).toEqual([
      'docs/other.md:1: link guide.md#setup-2: docs/guide.md has no heading with the anchor #setup-2',
    ]);
  });

  it('when links and headings are inside fenced code, then they are not read', () => {
    expect(markdownSections(GUIDE).map((s) => s.title)).not.toContain('not a heading');
    expect(brokenIn({ 'docs/other.md': GUIDE })).toEqual([]);
  });

  it("when a heading is GitHub's, then its anchor is GitHub's", () => {
    expect(headingSlug('Retries, time-outs and statuses')).toBe('retries-time-outs-and-statuses');
    expect(headingSlug('`webhook.test`')).toBe('webhooktest');
    expect(headingSlug('Web Analytics — External API backend')).toBe(
      'web-analytics--external-api-backend',
    );
    expect(headingSlug('The facade runs the [gateway](x.md)’s engine')).toBe(
      'the-facade-runs-the-gateways-engine',
    );
  });

  it('when a citation wraps its quoted title onto the next comment line, then the title is read whole', () => {
    const source = [
      '/**',
      ' * Counted once (docs/guide.md,',
      ' * "Usage: npm',
      ' * run x").',
      ' */',
    ];
    expect(docCitations(source.join('\n'))).toEqual([
      { file: 'docs/guide.md', heading: 'Usage: npm run x', line: 2 },
    ]);
  });

  it('when citations name an existing heading or bold label, then nothing is reported', () => {
    const source = '// docs/guide.md, "Setup"; docs/guide.md "durability"; docs/guide.md.\n';
    expect(brokenIn({ 'common/a.ts': source })).toEqual([]);
  });

  it('when a citation names a missing file or title, then each is reported', () => {
    const source = [
      '// The limits (docs/limits.md).',
      '// Durable (docs/guide.md, "Usage").',
      '// Gone (docs/guide.md, "Install").',
    ].join('\n');
    expect(
      brokenIn({ 'common/a.ts': source, 'README.md': 'See docs/guide.md "Tests".\n' }),
    ).toEqual([
      'README.md:1: docs/guide.md: no heading or bold label "Tests"',
      'common/a.ts:1: docs/limits.md: no such file',
      'common/a.ts:2: docs/guide.md: no heading or bold label "Usage"; did you mean "Usage: npm run x"?',
      'common/a.ts:3: docs/guide.md: no heading or bold label "Install"',
    ]);
  });

  it("when the project's docs and sources are checked, then every reference resolves", () => {
    expect(checkDocReferences(projectDocSources(fromRoot())).broken.map(shown)).toEqual([]);
  });
});
