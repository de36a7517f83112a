export { runCli, usage, type CliResult } from './run-cli';
export { COMMANDS } from './commands';
export { runReset } from './reset';
