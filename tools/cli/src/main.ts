import { ConfigError } from '@pis/runtime';
import { runCli } from './run-cli';

runCli(process.argv.slice(2), process.env)
  .then(({ code, stdout, stderr }) => {
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    process.exit(code);
  })
  .catch((error) => {
    process.stderr.write(
      `${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
