import type { ConsoleAssets } from '@pis/console';

/**
 * Set by tools/scripts/build-apps.mjs (esbuild `define`) when it bundles the API: the
 * console's script and stylesheet, built with the app, so a production start loads no
 * bundler and reads no source file.
 */
declare const PIS_CONSOLE_ASSETS: ConsoleAssets | undefined;

let fromSources: Promise<ConsoleAssets> | null = null;

/**
 * The console's script and stylesheet: the ones built into the app's bundle, or, when the
 * API runs from its sources (tests, development), bundled from the console's sources on
 * first use and kept for the life of the process. A failed bundle is retried next time.
 */
export function consoleAssets(): Promise<ConsoleAssets> {
  if (typeof PIS_CONSOLE_ASSETS !== 'undefined') return Promise.resolve(PIS_CONSOLE_ASSETS);
  if (fromSources === null) {
    fromSources = import('@pis/console').then((console) => console.bundleConsole());
    fromSources.catch(() => {
      fromSources = null;
    });
  }
  return fromSources;
}
