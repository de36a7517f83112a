// The embedded (PGlite) suites run in a Jest of their own, started by `../embedded.spec.ts`
// with --experimental-vm-modules: PGlite's bundle loads Node modules with a dynamic import(),
// which Jest's CommonJS sandbox refuses without that flag.
module.exports = {
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.pglite.ts'],
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testTimeout: 60_000,
};
