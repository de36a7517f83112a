import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRODUCTION_NODE_FLAGS } from './env';

describe('the benchmark runs the apps as production does', () => {
  it('When pnpm start and start:worker launch the bundles, then they use the flags the benchmark uses', () => {
    const scripts = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')).scripts;
    const runs: [string, string][] = [
      ['start', 'apps/api/dist/main.js'],
      ['start:worker', 'apps/worker/dist/main.js'],
    ];
    for (const [script, bundle] of runs) {
      expect(scripts[script]).toContain(`node ${PRODUCTION_NODE_FLAGS.join(' ')} ${bundle}`);
    }
  });
});
