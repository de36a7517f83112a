export {
  createApiRuntime,
  createOperatorRuntime,
  type ApiRuntime,
  type OperatorRuntime,
} from './api-runtime';
export { buildApiContainer, type ApiOverrides } from './container';
export { listen, SERVER_LIMITS, type RunningServer } from './http-server';
export { ensureDemoLocation } from './demo-setup';
export { resetDataDir, type ResetOutcome } from './data-dir-reset';
export { TOKENS } from './tokens';
