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

// A worker that holds more than 1 GB after a test file is replaced by a fresh one. Workers
// grow with every file they run (each file's module registry and what it leaves behind): a
// full run's two workers reached 1.5-2.6 GB by its last third. Deliveries timed there (a quiet
// location beside a hanging endpoint, commit to receipt in the worker's own event loop) took
// p50 73-92 ms, against 10 ms in a fresh worker on the same loaded machine beside the same
// suites; that heap and its collector's pauses are the difference found (decision 0160).
const config: Config = { projects, testTimeout: 30_000, maxWorkers: 2, workerIdleMemoryLimit: '1GB' };
export default config;
