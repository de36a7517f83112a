// Preloaded into the API and worker processes by the benchmark (`node --import <this file>`;
// cluster workers inherit it): writes `process.memoryUsage()` to `$PIS_BENCH_MEMORY_DIR/<pid>.json`
// every 200 ms, so the report can say how much of a process's RSS is the V8 heap. Plain
// JavaScript so that it loads without tsx into the bundled apps; it changes nothing else in
// the process and never keeps it alive.
'use strict';
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.PIS_BENCH_MEMORY_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.json`);
  const write = () => {
    try {
      writeFileSync(file, JSON.stringify(process.memoryUsage()));
    } catch {
      // the results directory went away: nothing to report to
    }
  };
  write();
  setInterval(write, 200).unref();
}
