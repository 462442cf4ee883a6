import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { type Api, bodyOf } from '../support/api.js';
import { OPENAPI_SPEC } from '../support/openapi-documents.js';
import { createAssistant, createPublicKey } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const CHROMIUM = '/usr/bin/chromium';
/**
 * The page is opened as http://docs.amc.test:<port>, not 127.0.0.1: browsers trust loopback
 * origins and would hide what a plain-HTTP deployment behind a host name gets (for instance a
 * CSP `upgrade-insecure-requests` that sends every script to https and leaves the page blank).
 */
const HOST_NAME = 'docs.amc.test';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--host-resolver-rules=MAP ${HOST_NAME} 127.0.0.1`,
];
/** Chromium's notice that it ignores a header (COOP) on a plain-HTTP origin: the page works the same. */
const IGNORED_HEADER_NOTICE = /header has been ignored, because the URL's origin was untrustworthy/;
const SCREENSHOT = 'test/artifacts/swagger-ui-list-tasks.png';
const HEADER_SCREENSHOT = 'test/artifacts/swagger-ui-header.png';
/** The operations taken with the organization key; every other one is taken with the private key. */
const ORGANIZATION_KEY_TAGS = new Set(['workspaces']);
const BROWSER_TEST_TIMEOUT_MS = 120_000;

const browserRequired = process.env.REQUIRE_BROWSER === '1';
const browserPresent = existsSync(CHROMIUM);
const runs = browserPresent || browserRequired;
const describeInBrowser = runs ? describe : describe.skip;
const skipReason = `${CHROMIUM} is missing: install chromium, or set REQUIRE_BROWSER=1 to fail instead of skipping`;
if (!runs) console.warn(`Swagger UI browser test SKIPPED: ${skipReason}`);
const title = `Swagger UI at /docs in headless Chromium${runs ? '' : ` (SKIPPED: ${skipReason})`}`;

describeInBrowser(title, () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!browserPresent) throw new Error(`REQUIRE_BROWSER=1 but ${CHROMIUM} is missing: apt-get install -y chromium`);
    t = await startTestApp();
    await t.reset();
    baseUrl = `http://${HOST_NAME}:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'authorizes with the private key, tries "list tasks" and shows the 200 response',
    async () => {
      const api = t.api();
      const assistant = await createAssistant(api);
      const task = {
        title: 'Daily summary',
        message: `Summarise for ${assistant.name}`,
        schedule: { start: '2026-12-01T09:30:00', timeZone: 'Europe/Berlin' },
      };
      bodyOf(await api.POST('/api/cloud/tasks', { body: task }), 201);

      const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && !IGNORED_HEADER_NOTICE.test(message.text())) pageErrors.push(message.text());
      });
      page.on('requestfailed', (request) => pageErrors.push(`${request.url()}: ${request.failure()?.errorText}`));

      await page.goto(`${baseUrl}/docs`);
      await page
        .locator('.swagger-ui .info .title')
        .getByText('Assistant Management Cloud API')
        .waitFor({ timeout: 20_000 })
        .catch((error: Error) => {
          throw new Error(`Swagger UI did not render (${error.message}); the browser reported:\n${pageErrors.join('\n')}`);
        });

      await page.locator('.auth-wrapper button.authorize').click();
      const dialog = page.locator('.modal-ux');
      await dialog.getByLabel('auth-bearer-value').fill(PRIVATE_KEY);
      await dialog.getByRole('button', { name: 'Apply credentials' }).click();
      await dialog.getByRole('button', { name: 'Remove authorization' }).waitFor();
      await dialog.locator('button.btn-done').click();

      const listTasks = page.locator('#operations-tasks-listTasks');
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

  it(
    'shows the title and the package version in its header, and no license',
    async () => {
      const page = await openDocs(browser, baseUrl);
      const info = page.locator('.swagger-ui .information-container');
      await expect(info.locator('.title').innerText()).resolves.toMatch(
        new RegExp(`^Assistant Management Cloud API\\s*${PACKAGE_VERSION.replace(/\./g, '\\.')}`),
      );
      await expect(info.locator('.info__license').count()).resolves.toBe(0);
      await expect(info.innerText()).resolves.not.toMatch(/licen[cs]e/i);
      await mkdir('test/artifacts', { recursive: true });
      await info.screenshot({ path: HEADER_SCREENSHOT });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'executes every create, replace and update operation with the body it offers (Try it out, Execute), and each answers 2xx',
    async () => {
      const ids = await resourcesToActOn(t.api());
      const page = await openDocs(browser, baseUrl);
      const results: string[] = [];
      for (const [key, withKey] of [
        [PRIVATE_KEY, (tag: string) => !ORGANIZATION_KEY_TAGS.has(tag)],
        [ORGANIZATION_KEY, (tag: string) => ORGANIZATION_KEY_TAGS.has(tag)],
      ] as const) {
        await authorize(page, key);
        for (const operation of WRITE_OPERATIONS.filter(({ tag }) => withKey(tag))) results.push(await tryItOut(page, operation, ids));
      }
      expect(results.filter((result) => !/ answered 2\d\d$/.test(result))).toEqual([]);
      expect(results).toHaveLength(WRITE_OPERATIONS.length);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS * 3,
  );
});

const PACKAGE_VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

interface WriteOperation {
  tag: string;
  operationId: string;
  method: string;
  path: string;
}

/** Every POST, PUT and PATCH of openapi.json, in the document's order. */
const WRITE_OPERATIONS: WriteOperation[] = Object.entries(
  (JSON.parse(readFileSync('openapi.json', 'utf8')) as { paths: Record<string, Record<string, { tags: string[]; operationId: string }>> }).paths,
).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([method]) => ['post', 'put', 'patch'].includes(method))
    .map(([method, { tags, operationId }]) => ({ tag: tags[0], operationId, method, path })),
);

/** What the path parameters of the operations name: made through the API first, as a user would have them. */
async function resourcesToActOn(api: Api): Promise<Record<string, string>> {
  const assistant = await createAssistant(api);
  const functionBody = {
    openapiSpec: OPENAPI_SPEC,
    handler: { type: 'REQUEST', requestHandler: { url: 'https://api.example.com/orders', method: 'GET' } },
  } as const;
  const task = { title: 'Weekly', message: 'Summarise the week.', schedule: { start: '2026-12-07T08:00:00', timeZone: 'Europe/Berlin' } };
  const [fn, created, apiKey] = await Promise.all([
    api.POST('/api/cloud/assistants/{assistantId}/functions', { params: { path: { assistantId: assistant.id } }, body: functionBody }),
    api.POST('/api/cloud/tasks', { body: task }),
    createPublicKey(api),
  ]);
  return { assistantId: assistant.id, functionId: bodyOf(fn, 201).function.id, taskId: bodyOf(created, 201).task.id, apiKeyId: apiKey.id };
}

async function openDocs(browser: Browser, baseUrl: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  await page.goto(`${baseUrl}/docs`);
  await page.locator('.swagger-ui .info .title').waitFor({ timeout: 20_000 });
  return page;
}

/** Authorize → (Logout when a key is set) → the key → Authorize → Close. */
async function authorize(page: Page, key: string): Promise<void> {
  await page.locator('.auth-wrapper button.authorize').click();
  const dialog = page.locator('.modal-ux');
  const logout = dialog.getByRole('button', { name: 'Remove authorization' });
  if ((await logout.count()) > 0) await logout.click();
  await dialog.getByLabel('auth-bearer-value').fill(key);
  await dialog.getByRole('button', { name: 'Apply credentials' }).click();
  await logout.waitFor();
  await dialog.locator('button.btn-done').click();
}

/** Try it out, the path ids filled in, the body left as offered, Execute: "<operation> answered <status>" (and what it sent when not 2xx). */
async function tryItOut(page: Page, { tag, operationId, method, path }: WriteOperation, ids: Record<string, string>): Promise<string> {
  const block = page.locator(`#operations-${tag}-${operationId}`);
  await block.locator('.opblock-summary-control').click();
  await block.getByRole('button', { name: 'Try it out' }).click();
  for (const name of path.match(/(?<=\{)\w+(?=\})/g) ?? []) {
    if (ids[name] === undefined) return `${operationId}: no id for the path parameter ${name}`;
    await block.locator(`tr[data-param-name="${name}"] input`).fill(ids[name]);
  }
  const offered = await block.locator('textarea.body-param__text').inputValue();
  await block.getByRole('button', { name: 'Execute' }).click();
  const response = block.locator('.live-responses-table .response').first();
  await response.waitFor();
  const status = await response.locator('.response-col_status').innerText();
  const answer = /^2\d\d$/.test(status) ? '' : ` to ${offered}: ${await response.locator('.response-col_description pre').first().innerText()}`;
  await block.locator('.opblock-summary-control').click();
  return `${method.toUpperCase()} ${path} (${operationId})${answer} answered ${status}`;
}
