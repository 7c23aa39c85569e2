import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { initialJsBudget } from './build/initial-js-budget.plugin';

const INITIAL_JS_BUDGET_KB = 250;
const GATEWAY = 'http://127.0.0.1:4000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react(), initialJsBudget(INITIAL_JS_BUDGET_KB)],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    reportCompressedSize: true,
    sourcemap: false,
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/graphql': GATEWAY,
      '/auth': GATEWAY,
    },
  },
  preview: { host: '127.0.0.1' },
});
