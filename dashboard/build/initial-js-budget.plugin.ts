import { gzipSync } from 'node:zlib';
import type { Logger, Plugin } from 'vite';
import type { OutputBundle, OutputChunk } from 'rollup';

/**
 * Fails the build when the JavaScript a first visit downloads (the entry chunks and every chunk
 * they import statically) exceeds `budgetKb` gzipped. Lazy chunks are left out: they load later.
 */
export function initialJsBudget(budgetKb: number): Plugin {
  let logger: Logger | undefined;
  return {
    name: 'initial-js-budget',
    apply: 'build',
    configResolved(config) {
      logger = config.logger;
    },
    generateBundle(_options, bundle) {
      const chunks = initialChunks(bundle);
      const sizes = chunks.map((chunk) => ({
        file: chunk.fileName,
        gzipKb: gzipSync(chunk.code, { level: 9 }).length / 1000,
      }));
      const totalKb = sizes.reduce((sum, { gzipKb }) => sum + gzipKb, 0);
      const lines = sizes.map(({ file, gzipKb }) => `  ${file}  ${gzipKb.toFixed(2)} kB gzip`);
      const summary = `Initial JS: ${totalKb.toFixed(2)} kB gzip (budget ${budgetKb} kB) in ${chunks.length} chunk(s)`;
      logger?.info(['', summary, ...lines].join('\n'));
      if (totalKb > budgetKb) this.error(`${summary}: over budget`);
    },
  };
}

function initialChunks(bundle: OutputBundle): OutputChunk[] {
  const chunks = new Map<string, OutputChunk>();
  for (const output of Object.values(bundle)) {
    if (output.type === 'chunk') chunks.set(output.fileName, output);
  }
  const initial = new Set<string>();
  const visit = (fileName: string) => {
    if (initial.has(fileName)) return;
    initial.add(fileName);
    for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
  };
  for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
  return [...initial].flatMap((fileName) => chunks.get(fileName) ?? []);
}
