import { join } from 'node:path';
import { expectEmbeddedSuitesToPass } from '@pis/testing/embedded';

// The embedded (PGlite) suites live in `embedded/*.pglite.ts` (`pnpm test:embedded` runs them alone).
describe('PGlite', () => {
  it('When the embedded suites run, then every one of their tests passes', async () => {
    await expectEmbeddedSuitesToPass(join(__dirname, 'embedded', 'jest.config.js'));
  }, 300_000);
});
