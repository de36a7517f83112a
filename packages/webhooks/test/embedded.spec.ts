import { join } from 'node:path';
import { expectEmbeddedSuitesToPass } from '@pis/testing/embedded';

// The in-process delivery suite on PGlite lives in `embedded/*.pglite.ts` (`pnpm test:embedded` runs it alone).
describe('in-process delivery on embedded PGlite', () => {
  it('When the embedded delivery suite runs, then every one of its tests passes', async () => {
    await expectEmbeddedSuitesToPass(join(__dirname, 'embedded', 'jest.config.js'));
  }, 300_000);
});
