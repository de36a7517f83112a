import {
  GONE_REASON,
  withinSpans,
  type Clock,
  type IdGenerator,
  Instant,
  type DeliverableEvent,
  type WebhookDelivery,
} from '@pis/domain';
import {
  type AttemptLog,
  type ClaimById,
  type ClaimedDelivery,
  type DeliveryJob,
  type DeliveryLeases,
  type DeliveryPipelineStore,
  type EnqueueCandidates,
  type OutboxRelayStore,
  type OutboxSignals,
  type OverduePosition,
  type RelayBatch,
  type RelayedDelivery,
} from '@pis/ports';
import { detach } from '@pis/domain/in-memory';
import { compareIds, scoped, type DeliveryRun, type State } from '@pis/domain/in-memory';

/** What the pipeline twin needs of the store: one atomic step at a time over the committed state. */
export interface PipelineHost {
  /** Runs `step` alone on the committed state; the state it answers becomes the committed one. */
  atomically<T>(step: (state: State) => { state: State; value: T }): Promise<T>;
  /** Subscribes to commits that appended events; answers an unsubscribe. */
  onEventsCommitted(listener: () => void): () => void;
  clock: Clock;
  ids: IdGenerator;
}

const micros = (ms: number): bigint => BigInt(Math.round(ms)) * 1000n;
const with_ = <K extends keyof State>(state: State, table: K, map: State[K]): State => ({
  ...state,
  [table]: map,
});

/** The in-memory twin of the pipeline's storage, held to the same contract suite as PostgreSQL's. */
export function inMemoryDeliveryPipeline(host: PipelineHost): DeliveryPipelineStore {
  const now = () => host.clock.now();

  const claimed = (state: State, d: WebhookDelivery, run: DeliveryRun): ClaimedDelivery => {
    const event: DeliverableEvent =
      state.events.get(d.locationId)?.find((e) => e.id === d.eventId) ??
      state.connectionEvents.get(d.eventId)!;
    return {
      id: d.id,
      locationId: d.locationId,
      endpointId: d.endpointId,
      event: detach(event),
      generation: run.generation,
      attemptCount: run.attemptCount,
    };
  };

  const lease = (state: State, ids: string[], leaseMs: number): State => {
    const deliveries = new Map(state.deliveries);
    const until = now().plusMicros(micros(leaseMs));
    for (const id of ids) deliveries.set(id, { ...deliveries.get(id)!, nextAttemptAt: until });
    return with_(state, 'deliveries', deliveries);
  };

  const isDue = (d: WebhookDelivery, at: Instant) =>
    d.status === 'pending' && (d.nextAttemptAt === null || d.nextAttemptAt.compare(at) <= 0);

  const relay: OutboxRelayStore = {
    relayBatch: (limit, handOff) =>
      host.atomically((state): { state: State; value: RelayBatch } => {
        const unrelayed = [...[...state.events.values()].flat(), ...state.connectionEvents.values()]
          .filter((e): e is DeliverableEvent => !state.relayed.has(e.id))
          .slice(0, limit);
        if (unrelayed.length === 0) return { state, value: { events: 0, created: [] } };
        const relayed = new Map(state.relayed);
        const deliveries = new Map(state.deliveries);
        const runs = new Map(state.deliveryRuns);
        const existing = new Set(
          [...state.deliveries.values()]
            .filter((d) => state.deliveryRuns.get(d.id)?.recovered !== true)
            .map((d) => `${d.eventId}/${d.endpointId}`),
        );
        const created: RelayedDelivery[] = [];
        for (const event of unrelayed) {
          relayed.set(event.id, true);
          // One delivery per endpoint of the location that wants the event, of a provider
          // connected to the location when the event was committed.
          // A location event: the location's endpoints and the provider-scope ones, of a provider
          // connected when it was committed. A connection event: its provider's provider-scope ones.
          const wanting = [...state.endpoints.values()]
            .filter((e) => e.disabledAt === null && e.events.includes(event.type))
            .filter((e) => {
              if (event.sequence === null) return e.locationId === null && e.providerId === event.providerId;
              if (e.locationId !== null && e.locationId !== event.locationId) return false;
              const spans = state.connections.get(scoped(event.locationId, e.providerId))?.spans;
              return spans !== undefined && withinSpans(spans, event.sequence);
            })
            .sort((a, b) => a.createdAt.compare(b.createdAt) || compareIds(a.id, b.id));
          for (const endpoint of wanting) {
            if (existing.has(`${event.id}/${endpoint.id}`)) continue;
            const at = now();
            const id = host.ids.uuid();
            deliveries.set(id, {
              id,
              locationId: event.locationId,
              endpointId: endpoint.id,
              eventId: event.id,
              eventType: event.type,
              sequence: event.sequence,
              status: 'pending',
              attempts: [],
              nextAttemptAt: at,
              createdAt: at,
              updatedAt: at,
            });
            if (handOff)
              deliveries.set(id, {
                ...deliveries.get(id)!,
                nextAttemptAt: at.plusMicros(micros(handOff.leaseMs)),
              });
            runs.set(id, { generation: 0, queuedGeneration: handOff ? 0 : null, attemptCount: 0 });
            created.push({
              deliveryId: id,
              generation: 0,
              locationId: event.locationId,
              endpointId: endpoint.id,
              event: detach(event),
            });
          }
        }
        const next = { ...state, relayed, deliveries, deliveryRuns: runs };
        return { state: next, value: { events: unrelayed.length, created } };
      }),
  };

  const leases: DeliveryLeases = {
    claimById: (id, generation, leaseMs, carried, ownsRelayLease = false) =>
      host.atomically((state): { state: State; value: ClaimById } => {
        const d = state.deliveries.get(id);
        const run = state.deliveryRuns.get(id);
        if (!d || !run) return { state, value: { kind: 'nothing-to-do', why: 'gone' } };
        if (run.generation !== generation)
          return { state, value: { kind: 'nothing-to-do', why: 'superseded' } };
        if (d.status !== 'pending') return { state, value: { kind: 'nothing-to-do', why: 'settled' } };
        const relayLease = carried !== undefined && ownsRelayLease && run.attemptCount === 0;
        if (!isDue(d, now()) && !relayLease)
          return { state, value: { kind: 'not-due', dueAt: d.nextAttemptAt! } };
        const delivery = carried
          ? { id, ...carried, event: detach(carried.event), generation, attemptCount: run.attemptCount }
          : claimed(state, d, run);
        return { state: lease(state, [id], leaseMs), value: { kind: 'claimed', delivery } };
      }),
    handBack: (id, generation, dueInMs) =>
      host.atomically((state) => {
        const d = state.deliveries.get(id);
        if (!d || d.status !== 'pending' || state.deliveryRuns.get(id)?.generation !== generation)
          return { state, value: null };
        const next = lease(state, [id], dueInMs);
        return { state: next, value: next.deliveries.get(id)!.nextAttemptAt };
      }),
    dueNow: (id, generation, handedBackUntil) =>
      host.atomically((state) => {
        const d = state.deliveries.get(id);
        const at = now();
        const waiting =
          d?.status === 'pending' &&
          state.deliveryRuns.get(id)?.generation === generation &&
          d.nextAttemptAt?.compare(handedBackUntil) === 0 &&
          handedBackUntil.compare(at) > 0;
        if (!waiting) return { state, value: false };
        const deliveries = new Map(state.deliveries).set(id, { ...d, nextAttemptAt: at });
        return { state: with_(state, 'deliveries', deliveries), value: true };
      }),
    claimDue: (limit, leaseMs, room) =>
      host.atomically((state) => {
        const at = now();
        const taken = new Map<string, number>();
        const hasRoom = (d: WebhookDelivery) => {
          const n = taken.get(d.endpointId) ?? 0;
          if (n >= (room?.endpoints.get(d.endpointId) ?? room?.otherwise ?? limit)) return false;
          taken.set(d.endpointId, n + 1);
          return true;
        };
        const due = [...state.deliveries.values()]
          .filter((d) => isDue(d, at))
          .sort((a, b) => a.nextAttemptAt!.compare(b.nextAttemptAt!) || compareIds(a.id, b.id))
          .filter(hasRoom)
          .slice(0, limit);
        const value = due.map((d) => claimed(state, d, state.deliveryRuns.get(d.id)!));
        return {
          state: lease(
            state,
            due.map((d) => d.id),
            leaseMs,
          ),
          value,
        };
      }),
  };

  const attempts: AttemptLog = {
    record: (delivery, result, followUp, health) =>
      host.atomically((state) => {
        const d = state.deliveries.get(delivery.id);
        const run = state.deliveryRuns.get(delivery.id);
        if (!d || !run) return { state, value: { endpointDisabled: false } };
        const at = now();
        let next: WebhookDelivery = { ...d, attempts: [...d.attempts, { ...result }] };
        let nextRun = run;
        if (run.generation === delivery.generation && d.status === 'pending') {
          next = {
            ...next,
            status: followUp.kind === 'retry' ? 'pending' : followUp.kind,
            nextAttemptAt: followUp.kind === 'retry' ? at.plusMicros(micros(followUp.delayMs)) : null,
            updatedAt: at,
          };
          nextRun = { ...run, attemptCount: run.attemptCount + 1 };
        }
        const gone = followUp.kind === 'failed' && followUp.disableEndpoint;
        let endpoints = state.endpoints;
        let endpointDisabled = false;
        const endpoint = endpoints.get(delivery.endpointId);
        // A failure attempted before the endpoint's last change (a PUT that enabled it again, to
        // the millisecond) does not judge it.
        const stale =
          followUp.kind !== 'succeeded' &&
          endpoint !== undefined &&
          result.attemptedAt.compare(Instant.fromEpochMillis(endpoint.updatedAt.epochMillis())) < 0;
        if (endpoint !== undefined && (health !== null || gone) && !stale) {
          const succeeded = followUp.kind === 'succeeded';
          const failingSince = succeeded ? null : (endpoint.failingSince ?? result.attemptedAt);
          const failedTooLong =
            !succeeded &&
            health !== null &&
            failingSince!.compare(result.attemptedAt.plusMicros(-micros(health.disableAfterFailingMs))) <= 0;
          endpointDisabled = endpoint.disabledAt === null && (gone || failedTooLong);
          endpoints = new Map(endpoints).set(endpoint.id, {
            ...endpoint,
            failingSince,
            ...(endpointDisabled
              ? { disabledAt: at, disabledReason: gone ? GONE_REASON : health!.failingReason }
              : {}),
          });
        }
        const deliveries = new Map(state.deliveries).set(d.id, next);
        const deliveryRuns = new Map(state.deliveryRuns).set(d.id, nextRun);
        return { state: { ...state, deliveries, deliveryRuns, endpoints }, value: { endpointDisabled } };
      }),
  };

  const candidates: EnqueueCandidates = {
    unqueued: (limit) =>
      host.atomically((state) => {
        const at = now();
        const value = [...state.deliveries.values()]
          .filter((d) => d.status === 'pending')
          .filter(
            (d) =>
              state.deliveryRuns.get(d.id)!.queuedGeneration !== state.deliveryRuns.get(d.id)!.generation,
          )
          .sort((a, b) => a.nextAttemptAt!.compare(b.nextAttemptAt!) || compareIds(a.id, b.id))
          .slice(0, limit)
          .map((d) => ({
            deliveryId: d.id,
            generation: state.deliveryRuns.get(d.id)!.generation,
            endpointId: d.endpointId,
            delayMs: Math.max(0, Number(d.nextAttemptAt!.epochMicros - at.epochMicros) / 1000),
          }));
        return { state, value };
      }),
    markQueued: (jobs: readonly DeliveryJob[]) =>
      host.atomically((state) => {
        const runs = new Map(state.deliveryRuns);
        for (const job of jobs) {
          const run = runs.get(job.deliveryId);
          if (run && run.generation === job.generation)
            runs.set(job.deliveryId, { ...run, queuedGeneration: job.generation });
        }
        return { state: with_(state, 'deliveryRuns', runs), value: undefined };
      }),
    markUnqueued: (jobs: readonly DeliveryJob[]) =>
      host.atomically((state) => {
        const runs = new Map(state.deliveryRuns);
        for (const job of jobs) {
          const run = runs.get(job.deliveryId);
          if (run && run.generation === job.generation && run.queuedGeneration === job.generation)
            runs.set(job.deliveryId, { ...run, queuedGeneration: null });
        }
        return { state: with_(state, 'deliveryRuns', runs), value: undefined };
      }),
    overdueQueued: (overdueAfterMs, limit, after: OverduePosition | null = null) =>
      host.atomically((state) => {
        const cutoff = overdueAfterMs === null ? null : now().plusMicros(-micros(overdueAfterMs));
        const key = (d: WebhookDelivery) =>
          `${d.nextAttemptAt!.epochMicros.toString().padStart(20, '0')}|${d.id}`;
        const value = [...state.deliveries.values()]
          .filter((d) => {
            const run = state.deliveryRuns.get(d.id)!;
            return d.status === 'pending' && run.queuedGeneration === run.generation;
          })
          .filter((d) => d.nextAttemptAt !== null && (cutoff === null || d.nextAttemptAt.compare(cutoff) < 0))
          .filter((d) => after === null || key(d) > after)
          .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
          .slice(0, limit)
          .map((d) => ({
            deliveryId: d.id,
            generation: state.deliveryRuns.get(d.id)!.generation,
            endpointId: d.endpointId,
            position: key(d),
          }));
        return { state, value };
      }),
  };

  const signals: OutboxSignals = {
    async subscribe(listener) {
      const off = host.onEventsCommitted(listener);
      listener();
      return async () => off();
    },
  };

  return { relay, leases, attempts, candidates, signals };
}
