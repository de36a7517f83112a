import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's `chromium` package; Playwright never downloads a browser of its own here. */
export const CHROMIUM = process.env['PIS_CHROMIUM'] ?? '/usr/bin/chromium';

/** Headless Chromium with nothing of its own on the network (updates, sync, first-run pages). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's package (apt-get update && apt-get install -y chromium; the set-up of pnpm test does it) or set PIS_CHROMIUM`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
