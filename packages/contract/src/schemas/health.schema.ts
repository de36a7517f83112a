import { responseObject } from './primitives';

export const healthResponseSchema = responseObject({
  status: { type: 'string', const: 'ok', description: 'the process is up' },
  webhookAllowInsecureUrls: {
    type: 'boolean',
    description:
      'whether this deployment accepts and delivers to http:// webhook URLs (WEBHOOK_ALLOW_INSECURE_URLS; false in production)',
  },
  webhookAllowPrivateUrls: {
    type: 'boolean',
    description:
      'whether this deployment accepts and delivers to loopback, private and link-local webhook receivers (WEBHOOK_ALLOW_PRIVATE_URLS; false in production)',
  },
} as const);

export const readinessResponseSchema = responseObject({
  status: {
    type: 'string',
    const: 'ready',
    description: 'the process can serve requests: its database answers',
  },
} as const);
