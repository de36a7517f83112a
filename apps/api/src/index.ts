export { createApiRuntime, type ApiRuntime } from './api-runtime';
export { buildApiContainer, type ApiOverrides } from './container';
export { listen, SERVER_LIMITS, type RunningServer } from './http-server';
export { seedDemoLocation } from './demo-setup';
export { TOKENS } from './tokens';
