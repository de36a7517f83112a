import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunPaths } from '../run';
import type { ScenarioResult } from '../scenario';
import { summarizeProfileDir } from './cpu-profile';
import { chartFile, markdownReport, type ProfileSection, type RunInfo } from './markdown';
import { latencyChart } from './svg';
import { checkTargets } from './targets';

/**
 * Writes `result.json`, `report.md` and one SVG chart per result into the run's directory,
 * and `results/latest.md` (the same report, its charts linked into the run's directory).
 * Answers the report's path.
 */
export function writeReport(results: readonly ScenarioResult[], paths: RunPaths, info: RunInfo): string {
  const targets = checkTargets(results);
  const profiles: ProfileSection[] = [];
  if (paths.profileDir) {
    for (const w of info.apiWorkers) {
      for (const [kind, title] of [
        ['api', `API (API_WORKERS=${w})`],
        ['worker', `worker (pass with API_WORKERS=${w})`],
      ] as const) {
        const found = summarizeProfileDir(join(paths.profileDir, `${kind}-w${w}`));
        if (found) profiles.push({ title, ...found });
      }
    }
  }
  for (const r of results) {
    if (r.timeline.length === 0) continue;
    const title = `${r.name}${r.apiWorkers === null ? '' : ` (API_WORKERS=${r.apiWorkers})`}`;
    writeFileSync(join(paths.resultsDir, chartFile(r)), latencyChart(title, r.timeline, r.bucketMs ?? 250));
  }
  writeFileSync(join(paths.resultsDir, 'result.json'), JSON.stringify({ info, targets, results }, null, 2));
  const report = join(paths.resultsDir, 'report.md');
  writeFileSync(report, markdownReport(info, results, targets, profiles));
  writeFileSync(
    join(paths.resultsDir, '..', 'latest.md'),
    markdownReport(info, results, targets, profiles, `${info.stamp}/`),
  );
  return report;
}
