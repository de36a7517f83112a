import type { ProviderClient } from './provider-client';
import type { FeedEvent, WebhookEventType } from './schemas';

export interface EventFeedReaderOptions {
  /** Resume strictly after this `locationEventSequence` (0, the default, reads from the first retained event). */
  after?: number;
  /** Only these event types (every type when absent). */
  types?: WebhookEventType[];
  /** Events per request, 1-1000 (default 100). */
  limit?: number;
  /** Keep polling once caught up (default false: the reader ends at the newest event). */
  follow?: boolean;
  /** Pause between polls once caught up, when following (default 1,000 ms). */
  pollMs?: number;
  /** Stops a following reader between polls. */
  signal?: AbortSignal;
}

/**
 * Reads the location's event feed in order, page after page, each event exactly once. Store
 * `event.data.locationEventSequence` once you have applied an event, and pass it as `after`
 * to resume there: the feed has no gap and never reorders, so nothing is missed or repeated.
 * A position older than retention rejects with a `ProviderApiError` whose code is
 * `events_expired`: rebuild from `getTableState()` and resume after its `asOfSequence`.
 */
export async function* readEventFeed(
  client: ProviderClient,
  options: EventFeedReaderOptions = {},
): AsyncGenerator<FeedEvent, void, undefined> {
  let after = options.after ?? 0;
  const types = options.types?.join(',');
  for (;;) {
    const page = await client.listEvents({
      after,
      limit: options.limit ?? 100,
      ...(types ? { types } : {}),
    });
    for (const event of page.events) yield event;
    after = page.nextAfter;
    if (page.hasMore) continue;
    if (!options.follow || options.signal?.aborted) return;
    const stopped = await pause(options.pollMs ?? 1_000, options.signal);
    if (stopped) return;
  }
}

/** Resolves true when `signal` aborted the pause. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(false);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
