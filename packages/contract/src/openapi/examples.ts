import recorded from './examples.json';

/** An OpenAPI Example Object. */
export interface Example {
  summary: string;
  value: unknown;
}

/** Examples of one operation: request bodies by name, response bodies by status, then by name. */
export interface OperationExamples {
  request?: Record<string, Example>;
  responses: Record<string, Record<string, Example>>;
}

/** A delivery as the receiver gets it: the Standard Webhooks headers and the body. */
export interface WebhookExample {
  headers: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>;
  body: unknown;
}

/**
 * The document's examples: what the service answered on a walk through the whole path, over
 * in-memory adapters with a manual clock and deterministic ids, for the contract's request
 * fixtures (packages/http/test/openapi-examples records them; its test fails when this file is
 * not what a recording gives today).
 */
export interface RecordedExamples {
  /** Answers every operation gives alike (a missing credential, a body that is not JSON...), by name. */
  shared: Record<string, Example>;
  operations: Record<string, OperationExamples>;
  webhooks: Record<string, WebhookExample>;
}

export const EXAMPLES: RecordedExamples = recorded as RecordedExamples;
