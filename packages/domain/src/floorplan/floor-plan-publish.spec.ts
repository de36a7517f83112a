import { at, room, table, workingPlan } from '../../test/builders';
import type { Outcome } from '../kernel/outcome';
import { planPublish, type PublishDecision } from './floor-plan-publish';

const NOW = at('2026-11-21T09:00:00.000700Z');

function decided(outcome: Outcome<PublishDecision>): PublishDecision {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

const draft = workingPlan({
  status: 'draft',
  rooms: [
    room({
      id: 'room-1',
      name: 'Hall',
      order: 3,
      canvasWidth: 500,
      decorations: [{ kind: 'bar', x: 1, y: 2, width: 3, height: 4, rotation: 0, text: null }],
      tables: [
        table({
          id: 't-1',
          label: 'A',
          shape: 'square',
          seatCount: 2,
          minCovers: 1,
          maxCovers: 2,
          x: 10,
          y: 20,
          rotation: 45,
        }),
        table({ id: 't-2', label: 'B', active: false }),
      ],
    }),
    room({ id: 'room-2', name: 'Terrace', order: 4, tables: [] }),
  ],
});

describe('planPublish', () => {
  it.each([
    ['the first publish', null, 1],
    ['a publish after version 1', 1, 2],
    ['a publish after version 41', 41, 42],
  ])('When it is %s, then the version is %s + 1', (_c, publishedVersion, version) => {
    const { plan, event } = decided(planPublish({ ...draft, publishedVersion }, null, NOW));

    expect(plan.version).toBe(version);
    expect(event.data).toMatchObject({ version, publishedAt: '2026-11-21T09:00:00.000Z' });
  });

  it('When a plan is published, then the snapshot keeps exactly the published fields of rooms and tables', () => {
    const { plan } = decided(planPublish(draft, null, NOW));

    expect(plan).toEqual({
      version: 1,
      publishedAt: NOW,
      rooms: [
        {
          id: 'room-1',
          name: 'Hall',
          order: 3,
          tables: [
            {
              id: 't-1',
              label: 'A',
              shape: 'square',
              seatCount: 2,
              minCovers: 1,
              maxCovers: 2,
              active: true,
              x: 10,
              y: 20,
              rotation: 45,
            },
            {
              id: 't-2',
              label: 'B',
              shape: 'round',
              seatCount: 4,
              minCovers: 1,
              maxCovers: 4,
              active: false,
              x: 100,
              y: 100,
              rotation: 0,
            },
          ],
        },
        { id: 'room-2', name: 'Terrace', order: 4, tables: [] },
      ],
    });
  });

  it('When a plan is published, then floorplan.published happens now with {version, publishedAt, changes}', () => {
    const { event } = decided(planPublish({ ...draft, status: 'published', publishedVersion: 2 }, null, NOW));

    expect(event).toEqual({
      type: 'floorplan.published',
      occurredAt: NOW,
      data: {
        version: 3,
        publishedAt: '2026-11-21T09:00:00.000Z',
        changes: { added: ['t-1', 't-2'], deactivated: [], reactivated: [], relabelled: [], updated: [] },
      },
    });
  });

  it('When a plan is published again, then changes compare it with the previous published version', () => {
    const first = decided(planPublish(draft, null, NOW)).plan;
    const working = structuredClone({ ...draft, status: 'published' as const, publishedVersion: 1 });
    const [t1, t2] = working.rooms[0]!.tables;
    t1!.label = 'A1';
    t1!.active = false;
    t2!.active = true;
    t2!.seatCount = 6;
    working.rooms[0]!.tables.push(table({ id: 't-3', label: 'C' }));

    const { event } = decided(planPublish(working, first, NOW));

    expect(event.data).toMatchObject({
      version: 2,
      changes: {
        added: ['t-3'],
        deactivated: ['t-1'],
        reactivated: ['t-2'],
        relabelled: [{ tableId: 't-1', from: 'A', to: 'A1' }],
        updated: ['t-2'],
      },
    });
  });

  it('When the working plan changes after a publish, then the snapshot does not', () => {
    const working = structuredClone(draft);
    const { plan } = decided(planPublish(working, null, NOW));

    working.rooms[0]!.tables[0]!.label = 'renamed';
    working.rooms[0]!.name = 'renamed';

    expect(plan.rooms[0]!.name).toBe('Hall');
    expect(plan.rooms[0]!.tables[0]!.label).toBe('A');
  });

  it.each([
    ['has never had rooms', workingPlan()],
    ['is marked draft but has no rooms', workingPlan({ status: 'draft' })],
  ])('When the location %s, then publishing is refused', (_c, working) => {
    expect(planPublish(working, null, NOW)).toMatchObject({ ok: false, code: 'validation_failed' });
  });

  it('When the version would pass 2147483647, then publishing is refused', () => {
    expect(planPublish({ ...draft, publishedVersion: 2_147_483_647 }, null, NOW)).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    expect(decided(planPublish({ ...draft, publishedVersion: 2_147_483_646 }, null, NOW)).plan.version).toBe(
      2_147_483_647,
    );
  });
});
