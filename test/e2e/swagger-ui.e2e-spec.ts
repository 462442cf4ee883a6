import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { createAssistant } from '../support/assistants.js';
import { bearer, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOT = 'test/artifacts/swagger-ui-list-tasks.png';
const BROWSER_TEST_TIMEOUT_MS = 120_000;

const browserRequired = process.env.REQUIRE_BROWSER === '1';
const browserPresent = existsSync(CHROMIUM);
const describeInBrowser = browserPresent || browserRequired ? describe : describe.skip;
const title = browserPresent || browserRequired
  ? 'Swagger UI at /docs in headless Chromium'
  : `Swagger UI at /docs in headless Chromium (SKIPPED: ${CHROMIUM} is missing; install chromium, or set REQUIRE_BROWSER=1 to fail instead)`;

describeInBrowser(title, () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!browserPresent) throw new Error(`REQUIRE_BROWSER=1 but ${CHROMIUM} is missing: apt-get install -y chromium`);
    t = await startTestApp();
    await t.reset();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'authorizes with the private key, tries "list tasks" and shows the 200 response',
    async () => {
      const assistant = await createAssistant(t.http);
      await t.http
        .post('/api/cloud/tasks')
        .set(bearer(PRIVATE_KEY))
        .send({ title: 'Daily summary', message: `Summarise for ${assistant.name}`, schedule: { start: '2026-12-01T09:30:00', timeZone: 'Europe/Berlin' } })
        .expect(201);

      const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') pageErrors.push(message.text());
      });

      await page.goto(`${baseUrl}/docs`);
      await page.locator('.swagger-ui .info .title').getByText('Assistant Management Cloud API').waitFor();

      await page.locator('.auth-wrapper button.authorize').click();
      const dialog = page.locator('.modal-ux');
      await dialog.getByLabel('auth-bearer-value').fill(PRIVATE_KEY);
      await dialog.getByRole('button', { name: 'Apply credentials' }).click();
      await dialog.getByRole('button', { name: 'Remove authorization' }).waitFor();
      await dialog.locator('button.btn-done').click();

      const listTasks = page.locator('#operations-tasks-TasksController_list');
      await listTasks.locator('.opblock-summary-control').click();
      await listTasks.getByRole('button', { name: 'Try it out' }).click();
      await listTasks.getByRole('button', { name: 'Execute' }).click();

      const liveResponse = listTasks.locator('.live-responses-table .response');
      await liveResponse.first().waitFor();
      await expect(liveResponse.locator('.response-col_status').first().innerText()).resolves.toBe('200');
      const body = await liveResponse.locator('.response-col_description pre').first().innerText();
      expect(JSON.parse(body)).toMatchObject({ tasks: [{ title: 'Daily summary', key: '' }] });
      await expect(listTasks.locator('.request-url pre').innerText()).resolves.toBe(`${baseUrl}/api/cloud/tasks?limit=100`);
      await expect(listTasks.locator('.curl-command').innerText()).resolves.toContain(`Authorization: Bearer ${PRIVATE_KEY}`);

      await mkdir('test/artifacts', { recursive: true });
      // The operation at the top of the window: its lock (authorized), the request made, and the live response below it.
      await listTasks.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: SCREENSHOT });
      expect(pageErrors).toEqual([]);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
