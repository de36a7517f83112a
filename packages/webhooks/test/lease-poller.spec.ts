import type { ClaimedDelivery, ClaimRoom, DeliveryLeases } from '@pis/ports';
import { LeasePoller } from '../src';
import { testLogger } from './support/test-logger';

/** Leases whose claims answer the next of `answers` (then none), noting each claim's room. */
function leasesAnswering(answers: string[][]): DeliveryLeases & { claims: ClaimRoom[] } {
  const claims: ClaimRoom[] = [];
  let n = 0;
  const delivery = (endpointId: string): ClaimedDelivery =>
    ({
      id: `d-${n}-${endpointId}`,
      endpointId,
      generation: 0,
      attemptCount: 0,
    }) as unknown as ClaimedDelivery;
  return {
    claims,
    claimDue: async (_limit, _leaseMs, room) => {
      claims.push(room!);
      return (answers[n++] ?? []).map(delivery);
    },
    claimById: async () => ({ kind: 'nothing-to-do', why: 'gone' }),
    handBack: async () => null,
    dueNow: async () => false,
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('LeasePoller', () => {
  it('When a slot frees of an endpoint the last claim left nothing of, then it claims again only at its next reason; a slot of an endpoint it held back makes it claim at once, if that endpoint has room then', async () => {
    // First claim: the quiet endpoint's one delivery. Second: two of the hanging endpoint's,
    // its whole room. Third (the hanging endpoint without room): nothing.
    const leases = leasesAnswering([['quiet'], ['hanging', 'hanging'], []]);
    const poller = new LeasePoller(leases, { leaseMs: 60_000, pollMs: 60_000, logger: testLogger });
    let room: ClaimRoom = { endpoints: new Map(), otherwise: 2 };
    poller.start();

    const first = await poller.receive(16, () => room);
    const waiting = poller.receive(16, () => room);
    await tick();
    poller.wake('quiet');
    await tick();
    const claimsAfterQuietSlot = leases.claims.length;
    poller.wake();
    const second = await waiting;
    room = { endpoints: new Map([['hanging', 0]]), otherwise: 2 };
    const third = poller.receive(16, () => room);
    await tick();
    const claimsBeforeHangingSlot = leases.claims.length;
    poller.wake('quiet');
    await tick();
    const claimsAfterQuietAgain = leases.claims.length;
    // One of its slots frees, and it is still at its cap (its first attempts end one by one).
    poller.wake('hanging');
    await tick();
    const claimsAtCap = leases.claims.length;
    room = { endpoints: new Map([['hanging', 1]]), otherwise: 2 };
    poller.wake('hanging');
    await tick();
    const claimsAfterHangingSlot = leases.claims.length;
    await poller.stopReceiving();
    await third;

    expect(first.map((j) => j.endpointId)).toEqual(['quiet']);
    expect(claimsAfterQuietSlot).toBe(1);
    expect(second.map((j) => j.endpointId)).toEqual(['hanging', 'hanging']);
    // After a claim that filled the hanging endpoint's room, the next claims at once (and finds nothing).
    expect([claimsBeforeHangingSlot, claimsAfterQuietAgain, claimsAtCap, claimsAfterHangingSlot]).toEqual([
      3, 3, 3, 4,
    ]);
  });
});
