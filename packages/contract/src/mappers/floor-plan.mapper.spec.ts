import { importBody } from '../../test/sample-bodies';
import type { FloorPlanImportRequest } from '../wire-types';
import { toImportInput, toTablePatch } from './floor-plan-request.mapper';

describe('toImportInput', () => {
  it('When the sample import is mapped, then every default of the import is filled', () => {
    const input = toImportInput(importBody() as FloorPlanImportRequest);
    expect(input).toEqual({
      replaceDraft: false,
      rooms: [
        {
          externalId: 'room-main',
          name: 'Main room',
          order: 0,
          canvasWidth: 1000,
          canvasHeight: 1000,
          tables: [
            {
              externalId: 't-1',
              label: 'T1',
              seatCount: 2,
              x: 100,
              y: 100,
              minCovers: 1,
              maxCovers: 2,
              rotation: 0,
              shape: 'round',
            },
            {
              externalId: 't-2',
              label: 'T2',
              seatCount: 6,
              x: 300,
              y: 100,
              minCovers: 2,
              maxCovers: 6,
              rotation: 90,
              shape: 'rectangle',
            },
          ],
          decorations: [
            { kind: 'bar', x: 0, y: 900, width: 400, height: 60, rotation: 0 },
            { kind: 'label', x: 500, y: 20, width: 100, height: 20, rotation: 0, text: 'Entrance' },
          ],
        },
        {
          externalId: 'room-terrace',
          name: 'Terrace',
          order: 5,
          canvasWidth: 800,
          canvasHeight: 600.5,
          tables: [
            {
              externalId: 't-10',
              label: 'T10',
              seatCount: 4,
              x: 200,
              y: 300,
              minCovers: 1,
              maxCovers: 4,
              rotation: 0,
              shape: 'round',
            },
            {
              externalId: 't-11',
              label: 'T11',
              seatCount: 4,
              x: 400,
              y: 300,
              minCovers: 1,
              maxCovers: 4,
              rotation: 0,
              shape: 'round',
            },
          ],
          decorations: [],
        },
      ],
    });
  });

  it.each([
    [1, 'round'],
    [4, 'round'],
    [5, 'rectangle'],
    [12, 'rectangle'],
  ])('When a table of %d seats has no shape, then it gets %s', (seatCount, shape) => {
    const body = {
      rooms: [
        { externalId: 'r', name: 'R', tables: [{ externalId: 't', label: 'T', seatCount, x: 1, y: 1 }] },
      ],
    };
    expect(toImportInput(body as FloorPlanImportRequest).rooms[0]!.tables[0]).toMatchObject({
      shape,
      maxCovers: seatCount,
      minCovers: 1,
    });
  });

  it('When replaceDraft is sent, then it is kept', () => {
    expect(
      toImportInput({ ...importBody(), replaceDraft: true } as FloorPlanImportRequest).replaceDraft,
    ).toBe(true);
  });
});

describe('toTablePatch', () => {
  it('When a patch names some fields, then only those reach the domain', () => {
    expect(toTablePatch({ label: 'Window 1', active: false })).toEqual({ label: 'Window 1', active: false });
  });

  it('When a patch names every field, then every field reaches the domain', () => {
    const body = {
      label: 'W',
      active: true,
      x: 1,
      y: 2,
      rotation: 370,
      shape: 'square' as const,
      seatCount: 3,
      minCovers: 1,
      maxCovers: 3,
    };
    expect(toTablePatch(body)).toEqual(body);
  });
});
