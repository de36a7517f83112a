import type { Config } from 'jest';

type Project = Exclude<NonNullable<Config['projects']>[number], string>;
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

// One Jest project per workspace package; every project runs TypeScript through swc
// (no type-checking here: `pnpm build` type-checks the whole tree once).
const groups = ['packages', 'apps', 'tools'];
const projects = groups.flatMap((group) =>
  readdirSync(join(__dirname, group))
    .filter((name) => existsSync(join(__dirname, group, name, 'package.json')))
    .map((name): Project => ({
      displayName: `${group}/${name}`,
      rootDir: join(__dirname, group, name),
      testEnvironment: 'node',
      testMatch: ['<rootDir>/{src,test}/**/*.spec.ts'],
      transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
      globalSetup: existsSync(join(__dirname, group, name, 'test/global-setup.ts'))
        ? join(__dirname, group, name, 'test/global-setup.ts')
        : undefined,
    })),
);

const config: Config = { projects, testTimeout: 30_000, maxWorkers: 2 };
export default config;
