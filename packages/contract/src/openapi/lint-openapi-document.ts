/**
 * `pnpm lint:openapi` (part of `pnpm lint`): the served document, linted by Redocly CLI with
 * its `recommended` rules. Any error or warning fails, as Redocly itself only fails on errors.
 * Redocly reads files, so the document is written to a temporary one first.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from './build-openapi-document';

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

function lint(file: string): LintReport {
  const run = spawnSync('redocly', ['lint', '--extends', 'recommended', '--format', 'json', file], {
    encoding: 'utf8',
    // Redocly sends usage telemetry unless told not to; a lint has nothing to report to anyone.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  try {
    return JSON.parse(run.stdout) as LintReport;
  } catch {
    throw new Error(`redocly lint gave no report: ${run.error?.message ?? run.stderr}`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'pis-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
  const { totals, problems } = lint(file);
  for (const p of problems) {
    console.error(`${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '#'}: ${p.message}`);
  }
  const summary = `${totals.errors} errors, ${totals.warnings} warnings`;
  if (problems.length > 0 || totals.errors + totals.warnings > 0) {
    console.error(`OpenAPI document (Redocly recommended): ${summary}`);
    process.exitCode = 1;
  } else {
    console.log(`OpenAPI document (Redocly recommended): ${summary}`);
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
