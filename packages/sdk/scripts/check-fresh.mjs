// Fails when packages/sdk/src/generated/openapi.ts is not what the OpenAPI document built
// from the contract generates today, so the SDK never drifts from the API. Run by `pnpm lint`.
//
// Usage: node packages/sdk/scripts/check-fresh.mjs
// Exit 0 with a one-line summary when fresh; exit 1 naming the first differing line and a
// temp file holding the fresh version when stale (fix: `pnpm sdk:generate`).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_FILE, generateTypes } from './generate-types.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const shown = relative(root, GENERATED_FILE);

const fresh = await generateTypes();
let committed = '';
try {
  committed = readFileSync(GENERATED_FILE, 'utf8');
} catch {
  // A missing file is reported as stale below.
}

if (committed === fresh) {
  console.log(`${shown}: fresh`);
} else {
  const freshFile = join(mkdtempSync(join(tmpdir(), 'pis-sdk-')), 'openapi.ts');
  writeFileSync(freshFile, fresh);
  const ours = committed.split('\n');
  const theirs = fresh.split('\n');
  const line = theirs.findIndex((text, i) => text !== ours[i]);
  const at = line === -1 ? ours.length : line + 1;
  console.error(
    `${shown} is stale: it differs from the OpenAPI document from line ${at} on ` +
      `(committed: ${JSON.stringify(ours[at - 1] ?? '')}, generated: ${JSON.stringify(theirs[at - 1] ?? '')}).\n` +
      `The generated version is in ${freshFile}. Run \`pnpm sdk:generate\` and commit the result.`,
  );
  process.exit(1);
}
