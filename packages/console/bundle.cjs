// @ts-check
// Bundles the console's browser sources (src/main.ts and the CSS it imports) into one script
// and one stylesheet, in memory. Called by tools/scripts/build-apps.mjs, which embeds the
// result in the API's bundle, and by the API itself when it runs from sources (tests,
// development), so the page is always built from the sources beside it.
const { build } = require('esbuild');

/** @returns {Promise<{ js: string; css: string }>} */
async function bundleConsole() {
  const result = await build({
    absWorkingDir: __dirname,
    entryPoints: ['src/main.ts'],
    outdir: 'out',
    write: false,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome111', 'firefox115', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  /** @param {string} extension */
  const output = (extension) => {
    const file = result.outputFiles.find((f) => f.path.endsWith(extension));
    if (!file) throw new Error(`the console bundle has no ${extension} output`);
    return file.text;
  };
  return { js: output('.js'), css: output('.css') };
}

module.exports = { bundleConsole };
