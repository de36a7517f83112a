import type { Page } from 'playwright-core';

export interface PageWatch {
  errors: string[];
  failed: string[];
  offHost: string[];
  urls: string[];
}

/** Records what a page must never do: log an error, fail a request, or reach past this machine. */
export function watch(page: Page): PageWatch {
  const seen: PageWatch = { errors: [], failed: [], offHost: [], urls: [] };
  page.on('console', (m) => m.type() === 'error' && seen.errors.push(m.text()));
  page.on('pageerror', (e) => seen.errors.push(e.message));
  page.on('requestfailed', (r) => seen.failed.push(`${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => r.status() >= 400 && seen.failed.push(`${r.url()} ${r.status()}`));
  page.on('request', (r) => seen.urls.push(r.url()));
  // Anything for another host is recorded and never sent.
  void page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (['127.0.0.1', 'localhost'].includes(url.hostname)) return route.continue();
    seen.offHost.push(url.href);
    return route.abort();
  });
  return seen;
}
