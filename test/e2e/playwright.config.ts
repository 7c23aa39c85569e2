import { defineConfig } from '@playwright/test';
import { fromRoot } from '../../common/platform/paths';

/**
 * The dashboard's end-to-end suite: Debian's Chromium driven by Playwright against the real stack
 * (started in global-setup.ts on a throw-away FerretDB and the local Redis). Screenshots of every
 * page, traces and failures land in test-results/ (CI keeps them as artefacts).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: fromRoot('test-results', 'e2e'),
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: fromRoot('test-results', 'e2e-report') }],
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      // Root in CI containers cannot use Chromium's sandbox.
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    },
  },
});
