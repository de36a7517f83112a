import { ConfigError } from '@pis/runtime';
import { runReset } from './reset';

/** `pnpm reset`. */
runReset(process.env)
  .then(({ code, message }) => {
    (code === 0 ? process.stdout : process.stderr).write(`${message}\n`);
    process.exit(code);
  })
  .catch((error) => {
    process.stderr.write(
      `${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
