import { responseObject } from './primitives';

export const healthResponseSchema = responseObject({
  status: { type: 'string', const: 'ok', description: 'the process is up' },
} as const);

export const readinessResponseSchema = responseObject({
  status: {
    type: 'string',
    const: 'ready',
    description: 'the process can serve requests: its database answers',
  },
} as const);
