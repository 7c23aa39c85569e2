import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { fromRoot } from '../../common/platform/paths';
import { verifyBodySignature } from '../../subgraphs/webhooks/src/domain/signing-secret';
import { runAdmin } from '../support/admin-cli';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run through the e2e global setup`);
  return value;
};
const dashboard = () => env('E2E_DASHBOARD_URL');
const facade = () => env('E2E_FACADE_URL');

/** `npm run --silent admin -- <args>` against the suite's stack: its one line of JSON. */
async function admin(...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await runAdmin(
    {
      MONGODB_URI: env('E2E_KEYS_MONGODB_URI'),
      REDIS_URL: env('E2E_REDIS_URL'),
      REDIS_KEY_PREFIX: env('E2E_REDIS_KEY_PREFIX'),
      DASHBOARD_URL: dashboard(),
    },
    ...args,
  );
  return JSON.parse(stdout) as Record<string, string>;
}

const loginLink = async (email: string) => (await admin('login:link', '--email', email)).url!;

const callApi = (key: string, path = '/websites') =>
  fetch(`${facade()}/api/external/v1${path}`, { headers: { 'x-api-key': key } });

const DESKTOP_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DESKTOP_FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A page view of shop.example.test as a browser's tracker sends it (each user agent a visitor). */
async function collectPageview(trackingCode: string, path: string, userAgent: string) {
  const sent = await fetch(`${facade()}/api/collect`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'user-agent': userAgent },
    body: JSON.stringify({
      type: 'pageview',
      trackingCode,
      url: `https://shop.example.test${path}`,
    }),
  });
  expect(sent.status).toBe(202);
}

/** The body cells of a table, row by row, as text. */
const bodyCells = (table: Locator) =>
  table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent)),
    );

/** The credential a dialog shows once (a new key or signing secret). */
const revealed = async (shown: Locator) => ((await shown.textContent()) ?? '').trim();

/** A link of the sidebar. */
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** A full-page screenshot kept under test-results/, and an axe-core check of the page. */
async function checkPage(page: Page, name: string): Promise<void> {
  // Charts load lazily: shoot the page as a reader sees it.
  await expect(page.getByText(/Loading/)).toHaveCount(0);
  await page.screenshot({
    path: fromRoot('test-results', 'screens', `${name}.png`),
    fullPage: true,
  });
  const results = await new AxeBuilder({ page }).analyze();
  const severe = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    severe.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `accessibility on ${name}`,
  ).toEqual([]);
}

test.describe.serial('the dashboard, driven as a customer would', () => {
  let page: Page;
  let receiver: WebhookReceiver;

  test.beforeAll(async ({ browser }) => {
    const context = await browser.newContext({
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await context.newPage();
    receiver = await startWebhookReceiver();
  });
  test.afterAll(async () => {
    await receiver.close();
    await page.context().close();
  });

  test('sign-in: a signed-out visitor is sent to the sign-in page; a login:link link signs in once', async () => {
    await page.goto(`${dashboard()}/keys`);
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByLabel('Email')).toBeVisible();
    await checkPage(page, 'sign-in');

    const url = await loginLink(env('E2E_EMAIL'));
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'API Keys' })).toBeVisible();
    expect(page.url()).not.toContain('token=');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'wa_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });
    // No credential is readable by scripts.
    expect(await page.evaluate(() => JSON.stringify(localStorage) + document.cookie)).not.toMatch(
      /wat_|svc_/,
    );
    await expect(page.getByText('No API keys yet')).toBeVisible();
    await checkPage(page, 'keys-empty');
  });

  let firstValue = '';
  let keyId = '';

  test("keys: the creation form has the spec's defaults; the value is shown once, copied, and works against the API", async () => {
    await page.getByRole('button', { name: 'Create API key' }).first().click();
    await expect(page.getByLabel('Name')).toBeVisible();
    await checkPage(page, 'key-create-form');
    await expect(page.getByLabel('Read analytics data')).toBeChecked();
    await expect(page.getByLabel('Track events')).toBeChecked();
    await expect(page.getByLabel('Manage websites')).not.toBeChecked();
    await expect(page.getByLabel('Manage team')).not.toBeChecked();
    await expect(page.getByLabel('Admin access')).not.toBeChecked();
    await expect(page.getByLabel('All websites')).toBeChecked();
    await expect(page.getByLabel('Selected websites only')).not.toBeChecked();
    await expect(page.getByLabel('Expiration')).toHaveValue(/1y|ONE_YEAR|one_year/i);

    await page.getByLabel('Name').fill('Production reporting');
    await page.getByLabel('Description').fill('Nightly export');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-key-value');
    await expect(shown).toBeVisible();
    firstValue = await revealed(shown);
    expect(firstValue).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByText('This key will not be shown again')).toBeVisible();
    await checkPage(page, 'key-created');
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByText('Copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstValue);
    await page.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: /Production reporting/ });
    await expect(row).toBeVisible();
    await expect(row).toContainText(firstValue.slice(0, 12));
    await expect(page.getByText(firstValue)).toHaveCount(0);
    await checkPage(page, 'keys-list');

    expect((await callApi(firstValue)).status).toBe(200);
  });

  test("keys: the call shows in the key's log, filtered by endpoint and date; usage statistics count it", async () => {
    await page.getByRole('link', { name: 'Production reporting' }).click();
    await expect(page.getByRole('heading', { name: 'Production reporting' })).toBeVisible();
    keyId = page.url().split('/keys/')[1]!.split(/[?#]/)[0]!;
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From').fill(today);
    await page.getByLabel('To').fill(tomorrow);
    await page.getByLabel('Endpoint').fill('/api/external/v1/websites');
    // The call log is written behind the request (a stream): reload until it is there.
    await expect(async () => {
      await page.reload();
      await expect(
        page.getByRole('cell', { name: '/api/external/v1/websites' }).first(),
      ).toBeVisible({
        timeout: 1_000,
      });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole('cell', { name: '200', exact: true }).first()).toBeVisible();
    await expect(page.getByTestId('total-requests')).toHaveText(/^1$/);
    await checkPage(page, 'key-details');

    // Another endpoint filter hides the call.
    await page.getByLabel('Endpoint').fill('/api/external/v1/usage');
    await page.reload();
    await expect(page.getByRole('cell', { name: '/api/external/v1/websites' })).toHaveCount(0);
  });

  test('keys: regenerate shows a new value once and the old one gets 401; delete ends the new one', async () => {
    await page.goto(`${dashboard()}/keys/${keyId}`);
    await page.getByRole('button', { name: 'Regenerate', exact: true }).click();
    await page.getByRole('button', { name: 'Regenerate key' }).click();
    const shown = page.getByTestId('new-key-value');
    await expect(shown).toBeVisible();
    const secondValue = await revealed(shown);
    expect(secondValue).toMatch(/^svc_/);
    expect(secondValue).not.toBe(firstValue);
    expect((await callApi(firstValue)).status).toBe(401);
    expect((await callApi(secondValue)).status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await checkPage(page, 'key-delete-confirm');
    await page.getByRole('button', { name: 'Delete key' }).click();
    await expect(page).toHaveURL(/\/keys$/);
    await expect(page.getByRole('row', { name: /Production reporting/ })).toHaveCount(0);
    expect((await callApi(secondValue)).status).toBe(401);
  });

  test('webhooks: create (secret once), test against a local receiver, rotate, redeliver, analytics alerts, delete', async () => {
    await nav(page, 'Webhooks').click();
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
    await checkPage(page, 'webhooks-empty');
    await page.getByRole('button', { name: 'Create webhook' }).first().click();
    await page.getByLabel('URL').fill(`${receiver.url}/hooks`);
    await page.getByLabel('Description').fill('Ops receiver');
    await page.getByRole('button', { name: 'Create webhook' }).last().click();
    const secretShown = page.getByTestId('new-webhook-secret');
    await expect(secretShown).toBeVisible();
    const secret = await revealed(secretShown);
    expect(secret.length).toBeGreaterThan(20);
    await checkPage(page, 'webhook-created');
    await page.getByRole('button', { name: 'Done' }).click();

    receiver.respondWith({ status: 200, body: 'received by the e2e receiver' });
    await page
      .getByRole('link', { name: /Ops receiver|\/hooks/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect(page.getByText('received by the e2e receiver')).toBeVisible();
    await expect(page.getByText(/\b200\b/).first()).toBeVisible();
    const [first] = await receiver.waitForRequests(1);
    const signedWith = (value: string, index: number) =>
      verifyBodySignature(
        value,
        receiver.requests[index]!.rawBody,
        String(receiver.requests[index]!.headers['x-webhook-signature']),
      );
    expect(first).toBeDefined();
    expect(signedWith(secret, 0)).toBe(true);
    await checkPage(page, 'webhook-details');

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page
      .getByRole('button', { name: /^Rotate/ })
      .last()
      .click();
    const rotatedShown = page.getByTestId('new-webhook-secret');
    await expect(rotatedShown).toBeVisible();
    const rotated = await revealed(rotatedShown);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'Done' }).click();
    // Only the new secret validates from now on.
    await page.getByRole('button', { name: 'Send test' }).click();
    await receiver.waitForRequests(2);
    expect(signedWith(rotated, 1)).toBe(true);
    expect(signedWith(secret, 1)).toBe(false);

    // The first test, sent again from its place in the deliveries: same event, the new secret.
    const firstEvent = JSON.parse(receiver.requests[0]!.rawBody.toString('utf8')) as { id: string };
    await page.getByRole('button', { name: `Redeliver webhook.test ${firstEvent.id}` }).click();
    await expect(page.getByText('Redelivered: 200')).toBeVisible();
    await receiver.waitForRequests(3);
    const again = JSON.parse(receiver.requests[2]!.rawBody.toString('utf8')) as { id: string };
    expect(again.id).toBe(firstEvent.id);
    expect(receiver.requests[2]!.headers['x-webhook-attempt']).toBe('2');
    expect(signedWith(rotated, 2)).toBe(true);

    // Analytics alerts: a spike from 3 times the usual, a report at 07:00 UTC, one website.
    const alerts = page.getByRole('region', { name: 'Analytics alerts' });
    await alerts.getByLabel(/Spike from/).fill('3');
    await alerts.getByLabel('Daily report at').selectOption('7');
    await alerts.getByLabel(/Goal alert also every/).fill('10');
    await alerts.getByLabel('All websites I can read').uncheck();
    const site = alerts.getByRole('checkbox').nth(1);
    await site.check();
    await alerts.getByRole('button', { name: 'Save alerts' }).click();
    await expect(alerts.getByText('Alerts saved.')).toBeVisible();
    await checkPage(page, 'webhook-alerts');
    await page.reload();
    await expect(alerts.getByLabel(/Spike from/)).toHaveValue('3');
    await expect(alerts.getByLabel('Daily report at')).toHaveValue('7');
    await expect(alerts.getByLabel(/Goal alert also every/)).toHaveValue('10');
    await expect(alerts.getByLabel('All websites I can read')).not.toBeChecked();
    await expect(alerts.getByRole('checkbox').nth(1)).toBeChecked();

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: /^Delete webhook/ }).click();
    await expect(page.getByRole('link', { name: /Ops receiver/ })).toHaveCount(0);
  });

  test("usage: this month's requests move when the API is called", async () => {
    await nav(page, 'API Keys').click();
    await page.getByRole('button', { name: 'Create API key' }).first().click();
    await page.getByLabel('Name').fill('Usage probe');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-key-value');
    const key = await revealed(shown);
    await page.getByRole('button', { name: 'Done' }).click();

    await nav(page, 'Usage').click();
    const used = page.getByTestId('month-requests');
    await expect(used).toBeVisible();
    const before = Number((await used.textContent())!.replace(/\D/g, ''));
    for (let i = 0; i < 3; i += 1) expect((await callApi(key)).status).toBe(200);
    await page.reload();
    await expect(used).toHaveText(String(before + 3));
    await expect(page.getByText(/30\b.*per minute|per minute.*\b30\b/i).first()).toBeVisible();
    await checkPage(page, 'usage');
  });

  let trackingCode = '';

  test('websites: list with tracking code and snippet; the overview shows collected traffic', async () => {
    await nav(page, 'Websites').click();
    await expect(page.getByRole('heading', { name: 'Websites' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'shop.example.test' })).toBeVisible();
    const snippet = page.getByTestId('tracker-snippet').first();
    trackingCode = /data-tracking-code="([\w-]+)"/.exec((await snippet.textContent())!)![1]!;
    await checkPage(page, 'websites');

    for (const path of ['/', '/pricing', '/pricing'])
      await collectPageview(trackingCode, path, DESKTOP_CHROME);
    await page.getByRole('link', { name: 'Shop' }).click();
    await expect(page.getByRole('heading', { name: /Shop/ })).toBeVisible();
    // Applied by the analytics subgraph behind the request: reload until it shows.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('total-pageviews')).toHaveText('3', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole('cell', { name: '/pricing' })).toBeVisible();
    await checkPage(page, 'website-overview');
  });

  test('websites: goals are added on the website page, a repeated one is refused, and one is deleted after a confirmation', async () => {
    const goals = page.getByRole('region', { name: 'Goals', exact: true });
    await expect(goals.getByText('No goals yet.')).toBeVisible();
    await expect(goals.getByLabel('Page visit')).toBeChecked();
    await goals.getByLabel('Page path').fill('/pricing*');
    await goals.getByRole('button', { name: 'Add goal' }).click();
    await expect(goals.getByRole('row', { name: /Visit \/pricing\*/ })).toBeVisible();
    await expect(goals.getByRole('status')).toHaveText('Goal “Visit /pricing*” added.');

    await goals.getByLabel('Custom event').check();
    await goals.getByLabel('Event name').fill('Purchase');
    await goals.getByLabel('Revenue currency').selectOption('EUR');
    await goals.getByRole('button', { name: 'Add goal' }).click();
    const purchase = goals.getByRole('row', { name: /Purchase/ });
    await expect(purchase).toContainText('EUR');
    await goals.getByLabel('Event name').fill('Purchase');
    await goals.getByRole('button', { name: 'Add goal' }).click();
    await expect(goals.getByRole('alert')).toContainText('already');
    await checkPage(page, 'website-goals');

    await purchase.getByRole('button', { name: 'Delete goal Purchase' }).click();
    await checkPage(page, 'goal-delete-confirm');
    await page.getByRole('button', { name: 'Delete goal', exact: true }).click();
    await expect(goals.getByRole('row', { name: /Purchase/ })).toHaveCount(0);
    await expect(goals.getByRole('row', { name: /Visit \/pricing\*/ })).toBeVisible();
  });

  test('websites: explore: page views by page and device where the source is a campaign, an unknown goal refused, no match, a narrow screen', async () => {
    // Two more visitors from a newsletter (the visit's first page view decides its source), beside
    // the direct visitor of the overview step: 7 page views in all.
    await collectPageview(trackingCode, '/pricing?utm_source=newsletter', IPHONE_SAFARI);
    await collectPageview(trackingCode, '/docs', IPHONE_SAFARI);
    await collectPageview(trackingCode, '/pricing?utm_source=newsletter', DESKTOP_FIREFOX);
    await collectPageview(trackingCode, '/pricing', DESKTOP_FIREFOX);
    // The engine's blocks are written with the overview's counters: once these count 7, so does it.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('total-pageviews')).toHaveText('7', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });

    const explore = page.getByRole('region', { name: 'Explore', exact: true });
    await expect(explore.getByText('Choose what to break the traffic down by')).toBeVisible();
    await explore.getByLabel('Break down by').selectOption({ label: 'Page' });
    await explore.getByLabel('Then by').selectOption({ label: 'Device' });
    await explore.getByLabel('Date range').selectOption({ label: 'Last 7 days' });
    await explore.getByLabel('Filter by').selectOption({ label: 'Source' });
    await explore.getByLabel('Condition').selectOption({ label: 'is' });
    await explore.getByLabel('Value', { exact: true }).fill('newsletter');
    await page.keyboard.press('Enter');

    const answer = explore.getByRole('table', {
      name: 'Visitors and page views by page and device, last 7 days, where source is “newsletter”',
    });
    await expect(answer).toBeVisible();
    await expect(answer.getByRole('columnheader')).toHaveText([
      'Page',
      'Device',
      'Visitors',
      'Page views',
    ]);
    // Most visitors first, then by the dimensions; the direct visitor's views are filtered out.
    expect(await bodyCells(answer)).toEqual([
      ['/docs', 'mobile', '1', '1'],
      ['/pricing', 'desktop', '1', '2'],
      ['/pricing', 'mobile', '1', '1'],
    ]);
    await expect(explore.getByText('3 rows', { exact: true })).toBeVisible();
    await checkPage(page, 'website-explore');

    // The question is in the address: a reload asks it again.
    expect(new URL(page.url()).searchParams.get('then')).toBe('device');
    await page.reload();
    await expect(answer).toBeVisible();
    expect(await bodyCells(answer)).toHaveLength(3);

    await explore.getByLabel('Filter by').selectOption({ label: 'Goal' });
    await explore.getByLabel('Value', { exact: true }).fill('Signup');
    await explore.getByRole('button', { name: 'Run' }).click();
    await expect(explore.getByRole('alert')).toHaveText(
      'filters: goal "Signup" is not one of the website\'s goals (Visit /pricing*)',
    );

    await explore.getByLabel('Filter by').selectOption({ label: 'Page' });
    await explore.getByLabel('Condition').selectOption({ label: 'does not contain' });
    await explore.getByLabel('Value', { exact: true }).fill('/');
    await explore.getByRole('button', { name: 'Run' }).click();
    await expect(
      explore.getByText('No events match this question in the date range.'),
    ).toBeVisible();
    await expect(explore.getByText('0 rows', { exact: true })).toBeVisible();

    await page.setViewportSize({ width: 375, height: 740 });
    // The chart follows the new width once its resize observer has fired.
    await expect
      .poll(() =>
        page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
      )
      .toBeLessThanOrEqual(0);
    await checkPage(page, 'website-explore-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('several organizations: a switcher changes every page; keyboard use and a narrow screen', async () => {
    const beta = await admin('org:create', '--name', 'Beta Labs', '--plan', 'scale');
    await admin('member:add', '--org', beta.id!, '--user', env('E2E_USER_ID'), '--role', 'member');
    await nav(page, 'Usage').click();
    await page.reload();
    const switcher = page.getByLabel('Organization');
    await expect(switcher).toBeVisible();
    await switcher.selectOption({ label: 'Beta Labs (Scale)' });
    await expect(page.getByText('60 requests per minute')).toBeVisible();
    await expect(page.getByTestId('month-requests')).toHaveText('0');
    await nav(page, 'API Keys').click();
    await expect(page.getByText('No API keys yet')).toBeVisible();
    await switcher.selectOption({ label: 'Acme Analytics (Pro)' });
    await expect(page.getByRole('row', { name: /Usage probe/ })).toBeVisible();

    // The create dialog opens from the keyboard, takes focus, and Escape closes it.
    await page.getByRole('button', { name: 'Create API key' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Name')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByLabel('Name')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Create API key' })).toBeFocused();

    await page.setViewportSize({ width: 375, height: 740 });
    await expect(page.getByRole('row', { name: /Usage probe/ })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await checkPage(page, 'keys-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('sign-out ends the session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto(`${dashboard()}/keys`);
    await expect(page).toHaveURL(/\/sign-in/);
  });
});
