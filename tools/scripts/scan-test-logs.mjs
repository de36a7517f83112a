// After the test run: every log line the service wrote during the tests (captured through
// PIS_LOG_CAPTURE_DIR, see packages/runtime/src/logger.ts) must be free of secrets. Fails
// when a line holds an API key, a webhook secret, a bearer credential or a test's
// backoffice token, and when too little was captured for the check to mean anything.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? '.test-logs';
const SECRETS = [
  [/[a-z0-9]{2,20}_sk_(live|test)_[A-Za-z0-9]{8,}/, 'an API key'],
  [/whsec_[A-Za-z0-9+/]{8,}/, 'a webhook secret'],
  [/Bearer\s+[A-Za-z0-9_.~+/-]{8,}/i, 'a bearer credential'],
  [/test-backoffice-token/, 'a backoffice token of the tests'],
];
const MIN_LINES = 1000;

let lines = 0;
const problems = [];
for (const name of readdirSync(dir).filter((f) => f.endsWith('.ndjson'))) {
  const text = readFileSync(join(dir, name), 'utf8');
  text.split('\n').forEach((line, i) => {
    if (!line) return;
    lines++;
    for (const [pattern, what] of SECRETS) {
      const found = pattern.exec(line);
      if (found) problems.push(`${name}:${i + 1}: ${what} (${found[0].slice(0, 14)}…)`);
    }
  });
}
if (lines < MIN_LINES) problems.push(`only ${lines} log lines were captured in ${dir}; expected at least ${MIN_LINES}`);
if (problems.length > 0) {
  console.error(`Secrets in the logs of the test run:\n${problems.slice(0, 50).join('\n')}`);
  process.exit(1);
}
console.log(`scan-test-logs: ${lines} log lines of the test run hold no secret`);
