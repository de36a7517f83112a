import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { productionNodeFlags } from '../src/services';

describe('productionNodeFlags', () => {
  it.each([
    ['node --max-semi-space-size=4 apps/api/dist/main.js', ['--max-semi-space-size=4']],
    ['pnpm i && node build.mjs apps/api && node --a=1 --b apps/api/dist/main.js', ['--a=1', '--b']],
    ['node apps/api/dist/main.js', []],
    ['tsx apps/api/src/main.ts', []],
  ])('When pnpm start is %p, then the API bundle runs with %p', (start, flags) => {
    expect(productionNodeFlags('api', { start })).toEqual(flags);
  });

  it('When the repository starts bundles, then the benchmark finds the command of both apps in package.json', () => {
    // Arrange
    const scripts = (
      JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;

    // Act
    const runsBundle = (script: string, app: string) => scripts[script]?.includes(`apps/${app}/dist/main.js`);

    // Assert: a start script that runs a bundle names it in the form productionNodeFlags reads
    for (const [script, app] of [
      ['start', 'api'],
      ['start:worker', 'worker'],
    ] as const) {
      if (!runsBundle(script, app)) continue;
      expect(scripts[script]).toMatch(new RegExp(`\\bnode(\\s+--\\S+)*\\s+apps/${app}/dist/main\\.js`));
    }
  });
});
