/** How far the webhook pipeline is behind, measured on the store's own clock. */
export interface PipelineBacklogMeasure {
  /** Seconds since the oldest committed event that no relay has fanned out yet was committed; 0 when none waits. */
  outboxLagSeconds: number;
  /** Committed events no relay has fanned out yet. */
  unrelayedEvents: number;
  /** Deliveries still pending: waiting for their first attempt or for a retry. */
  pendingDeliveries: number;
}

/**
 * The read side an operator watches (a metrics scrape reads it on demand). Store-wide, over
 * every location; it sees committed state only.
 */
export interface PipelineBacklog {
  measure(): Promise<PipelineBacklogMeasure>;
}
