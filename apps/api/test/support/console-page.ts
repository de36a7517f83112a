import type { Page } from 'playwright-core';

/** Chooses the location by its name in the console's location picker, once the picker lists it. */
export async function pickLocation(page: Page, name: string): Promise<void> {
  await page.locator('#location option', { hasText: name }).waitFor({ state: 'attached' });
  await page.selectOption('#location', { label: name });
}
