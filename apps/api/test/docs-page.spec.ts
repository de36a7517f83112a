import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { Harness } from './support/harness';
import { watch } from './support/page-watch';
import { P, type Json } from './support/wire';

/** The API reference page at /docs, checked in a real browser and over plain HTTP. */
const ARTIFACTS = join(__dirname, '../../../.test-artifacts');

let h: Harness;
let browser: Browser;
beforeAll(async () => {
  h = await Harness.start();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await h?.stop();
});

interface Shown {
  method: string;
  path: string;
  operationId: string;
  summary: string;
}

/** Every operation and webhook the document describes, as the page should list it. */
function described(doc: Json): Shown[] {
  const entries = (group: unknown) =>
    Object.entries(group as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        operationId: String(op['operationId']),
        summary: String(op['summary']),
      })),
    );
  return [...entries(doc['paths']), ...entries(doc['webhooks'])];
}

/** What the page lists: one Swagger UI operation block per operation or webhook. */
async function listed(page: Page): Promise<Shown[]> {
  const text = async (block: Locator, selector: string) =>
    ((await block.locator(selector).first().textContent()) ?? '').replace(/\u200b/g, '').trim();
  const shown: Shown[] = [];
  for (const block of await page.locator('.opblock').all()) {
    shown.push({
      method: await text(block, '.opblock-summary-method'),
      path: (await block.locator('.opblock-summary-path').first().getAttribute('data-path')) ?? '',
      operationId: await text(block, '.opblock-summary-operation-id'),
      summary: await text(block, '.opblock-summary-description'),
    });
  }
  return shown;
}

const by = (a: Shown, b: Shown) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`);

it('When /docs is opened in Chromium, then every operation and webhook of the served document is listed, with the onboarding overview, no error and no request off this machine', async () => {
  const doc = (await h.anonymous.get(`${P}/openapi.json`).expect(200)).body as Json;
  const expected = described(doc);
  expect(Object.keys(doc['webhooks'] as Json).length).toBeGreaterThan(0);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const seen = watch(page);

  await page.goto(`${h.api.baseUrl}/docs`);
  await page.waitForFunction(`document.querySelectorAll('.opblock').length >= ${expected.length}`);
  await page.waitForLoadState('networkidle');

  expect((await listed(page)).sort(by)).toEqual([...expected].sort(by));
  expect(await page.getByRole('heading', { name: 'Onboarding' }).isVisible()).toBe(true);
  expect(await page.getByRole('heading', { name: 'Webhooks', exact: true }).isVisible()).toBe(true);
  expect(seen.urls).toContain(`${h.api.baseUrl}${P}/openapi.json`);
  expect({ errors: seen.errors, failed: seen.failed, offHost: seen.offHost }).toEqual({
    errors: [],
    failed: [],
    offHost: [],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'docs-page.png'), fullPage: true });
  await page.close();
}, 90_000);

it('When a link of the onboarding overview is followed, then the operation it names opens on the page', async () => {
  const page = await browser.newPage();
  const seen = watch(page);
  await page.goto(`${h.api.baseUrl}/docs`);

  await page.locator('.info a[href="#/provider/createReservation"]').click();

  await page.locator('#operations-provider-createReservation.is-open').waitFor({ timeout: 10_000 });
  expect(await page.locator('#operations-provider-createReservation .opblock-body').isVisible()).toBe(true);
  expect(browser.contexts().flatMap((c) => c.pages())).toHaveLength(1);
  expect([...seen.errors, ...seen.failed, ...seen.offHost]).toEqual([]);
  await page.close();
}, 60_000);

it('When a webhook and an operation are opened, then they show the recorded examples, not values Swagger UI invents', async () => {
  const doc = (await h.anonymous.get(`${P}/openapi.json`).expect(200)).body as Json;
  const first = (content: Json) =>
    Object.values((content['application/json'] as Json)['examples'] as Json)[0] as Json;
  const webhook = (doc['webhooks'] as Json)['table.spend_updated'] as Json;
  const delivery = first(((webhook['post'] as Json)['requestBody'] as Json)['content'] as Json)[
    'value'
  ] as Json;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const seen = watch(page);
  await page.goto(`${h.api.baseUrl}/docs`);

  const spend = page.locator('#operations-webhooks-webhook_table_spend_updated');
  await spend.locator('.opblock-summary').click();
  const shown = spend.locator('.opblock-body');
  await shown.getByText(String(delivery['timestamp'])).first().waitFor({ timeout: 10_000 });
  const text = (await shown.textContent()) ?? '';
  expect(text).toContain(JSON.stringify((delivery['data'] as Json)['orderId']));
  expect(text).not.toMatch(/"string"/);
  const headers = webhook['post'] as { parameters: { name: string; examples: Json }[] };
  for (const { name, examples } of headers.parameters) {
    expect(text).toContain(`${name}: ${String((examples['table.spend_updated'] as Json)['value'])}`);
  }

  const create = page.locator('#operations-provider-createReservation');
  await create.locator('.opblock-summary').click();
  await create.locator('.opblock-body').getByText('"ot-10001"').first().waitFor({ timeout: 10_000 });
  const operation = (await create.locator('.opblock-body').textContent()) ?? '';
  expect(operation).not.toContain('"externalId": "string"');
  expect(operation).toContain('"code": "validation_failed"');

  mkdirSync(ARTIFACTS, { recursive: true });
  await spend.screenshot({ path: join(ARTIFACTS, 'docs-page-webhook-example.png') });
  await page.locator('.info').screenshot({ path: join(ARTIFACTS, 'docs-page-onboarding.png') });
  expect([...seen.errors, ...seen.failed, ...seen.offHost]).toEqual([]);
  await page.close();
}, 60_000);

describe('GET /docs over HTTP', () => {
  it('When /docs is requested without a credential, then 200 HTML that loads only assets of this service, under a same-origin policy', async () => {
    const res = await h.anonymous.get('/docs').expect(200);

    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    const sources = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(2);
    for (const source of sources) {
      expect(source).toMatch(/^\/docs\/assets\//);
      await h.anonymous.get(source).expect(200);
    }
  });

  it('When a file of the renderer package that the page does not load is asked for, then 404 not_found', async () => {
    const res = await h.anonymous.get('/docs/assets/index.html');

    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('When /docs is sent another method, then 405 not_found with Allow', async () => {
    const res = await h.anonymous.post('/docs');

    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('not_found');
    expect(res.headers['allow']).toBe('GET, HEAD');
  });
});
