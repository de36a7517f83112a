export { createWorkerRuntime, type WorkerRuntime } from './worker-runtime';
export { buildWorkerContainer, type WorkerOverrides } from './container';
export { loadWorkerSettings, type WorkerSettings } from './worker-settings';
export { TOKENS } from './tokens';
