import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { pickLocation } from './support/console-page';
import { Harness, type TestLocation } from './support/harness';
import { watch } from './support/page-watch';
import { connectionPath, createProvider, type TestProvider } from './support/providers';
import { BACKOFFICE_TOKEN } from './support/test-api';
import { B, P, uniqueId, type Json } from './support/wire';

/**
 * The operator console's providers section in a real Chromium, against the real API: the
 * location is picked by name, a provider granted and revoked from the page, each step
 * confirmed by the API itself.
 */
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

const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function signedIn(): Promise<{ page: Page; seen: ReturnType<typeof watch> }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const seen = watch(page);
  await page.goto(`${h.api.baseUrl}/console`);
  await page.fill('#token', BACKOFFICE_TOKEN);
  await page.click('.token-form button[type=submit]');
  return { page, seen };
}

/** The location's connections as the backoffice lists them, by provider id. */
async function connections(loc: TestLocation): Promise<Record<string, string>> {
  const res = await h.operator.get(`${B}/locations/${loc.id}/connections`).expect(200);
  return Object.fromEntries((res.body.connections as Json[]).map((c) => [c['providerId'], c['status']]));
}

/** What the provider's own key is answered at the location (200 while connected). */
async function providerStatusAt(provider: TestProvider, loc: TestLocation): Promise<number> {
  return (await provider.at(loc).get(`${P}/tables/state`)).status;
}

const row = (page: Page, table: string, provider: { id: string }) =>
  page.locator(`table.${table} tr[data-provider-id="${provider.id}"]`);

it('When the operator picks a location by name, grants a provider and revokes it, then the page and the API agree at each step, and no id is shown', async () => {
  const loc = await h.location({ tables: 2 });
  await h.location({ tables: 1 }); // another location, listed beside it
  const provider = await createProvider(h);
  const { page, seen } = await signedIn();

  // No id to paste: the picker lists the locations by name.
  await pickLocation(page, loc.name);
  await row(page, 'connections', { id: loc.id }).waitFor();
  expect(page.url()).toContain(`#location=${loc.id}`);
  expect(await row(page, 'connections', { id: loc.id }).getAttribute('data-own')).toBe('true');
  expect(await row(page, 'connections', { id: loc.id }).locator('[data-action="revoke"]').count()).toBe(0);
  expect(await connections(loc)).toEqual({ [loc.id]: 'active' });
  expect(await providerStatusAt(provider, loc)).toBe(403);

  // Grant, picking the provider by name.
  await page.selectOption('#grant-provider', { label: `${provider.name} (booking)` });
  await page.click('.grant-form button[type=submit]');
  await row(page, 'connections', provider).waitFor();
  await page.locator('#notice', { hasText: `${provider.name} may now act for ${loc.name}` }).waitFor();
  expect(await connections(loc)).toEqual({ [loc.id]: 'active', [provider.id]: 'active' });
  expect(await providerStatusAt(provider, loc)).toBe(200);
  // An active provider is not offered again.
  expect(await page.locator('#grant-provider option', { hasText: provider.name }).count()).toBe(0);

  // Revoke asks once more; cancelling changes nothing.
  await row(page, 'connections', provider).locator('[data-action="revoke"]').click();
  await row(page, 'connections', provider).locator('[data-action="cancel-revoke"]').click();
  expect(await connections(loc)).toEqual({ [loc.id]: 'active', [provider.id]: 'active' });
  await row(page, 'connections', provider).locator('[data-action="revoke"]').click();
  await row(page, 'connections', provider).locator('[data-action="confirm-revoke"]').click();
  await row(page, 'revoked', provider).waitFor();
  expect(await row(page, 'connections:not(.revoked)', provider).count()).toBe(0);
  expect(await connections(loc)).toEqual({ [loc.id]: 'active', [provider.id]: 'revoked' });
  const refused = await provider.at(loc).get(`${P}/tables/state`);
  expect([refused.status, refused.body.error.code]).toEqual([403, 'location_not_granted']);
  // Offered again, and granted again from the disconnected list.
  await page.locator('#grant-provider option', { hasText: provider.name }).waitFor({ state: 'attached' });
  await row(page, 'revoked', provider).locator('[data-action="grant-again"]').click();
  await row(page, 'connections:not(.revoked)', provider).waitFor();
  expect(await connections(loc)).toEqual({ [loc.id]: 'active', [provider.id]: 'active' });
  expect(await providerStatusAt(provider, loc)).toBe(200);

  const text = await page.evaluate('document.body.innerText');
  expect(text).not.toMatch(UUID_IN_TEXT);
  expect([...seen.errors, ...seen.failed, ...seen.offHost]).toEqual([]);
  await page.close();
}, 60_000);

it('When the operator switches locations, then each shows its own providers; a provider created on the page is offered by name', async () => {
  const first = await h.location({ tables: 1 });
  const second = await h.location({ tables: 1 });
  const provider = await createProvider(h);
  await h.operator.put(connectionPath(first, provider.id)).expect(201);
  const { page, seen } = await signedIn();

  await pickLocation(page, first.name);
  await row(page, 'connections', provider).waitFor();
  await pickLocation(page, second.name);
  await row(page, 'connections', { id: second.id }).waitFor();
  expect(await row(page, 'connections', provider).count()).toBe(0);

  const name = `Console ${uniqueId('p')}`;
  await page.fill('#provider-name', name);
  await page.fill('#provider-brand', 'tablebook');
  await page.click('.provider-form button[type=submit]');
  await page
    .locator('#grant-provider option', { hasText: `${name} (tablebook)` })
    .waitFor({ state: 'attached' });
  const listed = await h.operator.get(`${B}/providers`).expect(200);
  expect((listed.body.providers as Json[]).filter((p) => p['name'] === name)).toHaveLength(1);
  expect([...seen.errors, ...seen.failed, ...seen.offHost]).toEqual([]);
  await page.close();
}, 60_000);

it('When the console sends bad input, then the envelope’s message is shown as an alert and nothing is stored', async () => {
  const loc = await h.location({ tables: 1 });
  const before = await h.operator.get(`${B}/providers?limit=100`).expect(200);
  const body = { name: 'Broken', brand: 'Not A Brand!' };
  const expected = await h.operator.post(`${B}/providers`).send(body).expect(422);
  const { page, seen } = await signedIn();
  await pickLocation(page, loc.name);
  await row(page, 'connections', { id: loc.id }).waitFor();

  await page.fill('#provider-name', body.name);
  await page.fill('#provider-brand', body.brand);
  await page.click('.provider-form button[type=submit]');
  const alert = page.locator('#notice[role="alert"]');
  await alert.waitFor();

  const shown = await alert.textContent();
  expect(shown).toContain(expected.body.error.message as string);
  const detail = (expected.body.error.details as Json[])[0]!;
  expect(shown).toContain(`${detail['path'] as string}: ${detail['message'] as string}`);
  const after = await h.operator.get(`${B}/providers?limit=100`).expect(200);
  expect(after.body.providers).toEqual(before.body.providers);
  expect(seen.failed).toEqual([`${h.api.baseUrl}${B}/providers 422`]);
  // Chromium reports the refused request itself on the console; nothing else is logged.
  expect(seen.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  expect(seen.offHost).toEqual([]);
  await page.close();
}, 60_000);

it('When there are more locations than one page, then "More locations" reads the next page and an older location is picked by name', async () => {
  const older = await h.location({ tables: 1 });
  for (let i = 0; i < 100; i += 1) {
    await h.operator
      .post(`${B}/locations`)
      .send({ name: `Filler ${uniqueId('l')}`, brand: 'filler' })
      .expect(201);
  }
  const { page, seen } = await signedIn();
  await page.locator('[data-action="more-locations"]').waitFor();
  expect(await page.locator('#location option', { hasText: older.name }).count()).toBe(0);

  await page.click('[data-action="more-locations"]');
  await pickLocation(page, older.name);
  await row(page, 'connections', { id: older.id }).waitFor();
  expect(page.url()).toContain(`#location=${older.id}`);
  expect([...seen.errors, ...seen.failed, ...seen.offHost]).toEqual([]);
  await page.close();
}, 60_000);
