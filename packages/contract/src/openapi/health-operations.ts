import type { OperationSpec } from './operation-spec';

const probe = { security: 'none', tag: 'health', method: 'get' } as const;

/** Probes for load balancers and orchestrators; no credential, not rate limited. */
export const healthOperations: OperationSpec[] = [
  {
    ...probe,
    operationId: 'getHealth',
    path: '/healthz',
    summary: 'Liveness: the process is up',
    description:
      'Answers as long as the process runs, whatever its database does; restart the process when it does not. ' +
      'It also tells which webhook URLs this deployment accepts, so a setup can check that before it registers one.',
    success: { status: 200, description: 'the process is up', schema: 'HealthResponse' },
    errors: { 400: 'validation_failed: the request is not valid HTTP/1.1', 500: 'internal_error' },
  },
  {
    ...probe,
    operationId: 'getReadiness',
    path: '/readyz',
    summary: 'Readiness: the process can serve requests (its database answers)',
    description:
      'Send traffic only while this answers 200; a 503 passes without a restart once the database is back.',
    success: { status: 200, description: 'ready', schema: 'ReadinessResponse' },
    errors: {
      400: 'validation_failed: the request is not valid HTTP/1.1',
      503: 'internal_error: the database is not reachable; retry after Retry-After seconds',
    },
  },
];
