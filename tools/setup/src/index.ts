/**
 * Setting up what the tests run against, the same way everywhere: `pnpm test` (through
 * `main.ts`) and any suite that starts servers of its own (a Redis Cluster, a replica).
 */
export { runCommand, waitFor, type CommandResult } from './command';
export {
  cannotInstallPackages,
  installCommand,
  installPackages,
  isExecutable,
  missingPackages,
  packagesWithoutCandidate,
  type DebianPackage,
} from './debian';
export {
  createDatabase,
  postgresAddress,
  postgresClusters,
  postgresStartCommand,
  postgresState,
  startPostgresCluster,
  type PostgresCluster,
  type PostgresState,
} from './postgres';
export {
  ensureRedis,
  redisAnswers,
  redisServerArgs,
  redisServerCommand,
  startRedis,
  type RedisServerOptions,
} from './redis';
export { setUpTestEnvironment, TEST_PACKAGES, type SetupOptions, type SetupReport } from './test-environment';
