import {
  MAX_DRAWN_SEATS,
  MIN_SIDE,
  RECTANGLE_DEPTH,
  SEAT_PITCH,
  canvasToPixel,
  footprint,
  pixelsPerUnit,
  rotatedExtent,
  seatPositions,
  type Shape,
} from './geometry';

describe('footprint', () => {
  it('When a round table has more seats, then its circumference grows by one pitch per seat', () => {
    expect(footprint('round', 12)).toEqual({ kind: 'circle', radius: (12 * SEAT_PITCH) / (2 * Math.PI) });
    expect(footprint('round', 1)).toEqual({ kind: 'circle', radius: MIN_SIDE / 2 });
  });

  it('When a square table has more seats, then each side seats a quarter of them', () => {
    expect(footprint('square', 8)).toEqual({ kind: 'rect', width: 2 * SEAT_PITCH, height: 2 * SEAT_PITCH });
    expect(footprint('square', 2)).toEqual({ kind: 'rect', width: MIN_SIDE, height: MIN_SIDE });
  });

  it('When a rectangular table has more seats, then it grows along its long sides only', () => {
    expect(footprint('rectangle', 8)).toEqual({
      kind: 'rect',
      width: 4 * SEAT_PITCH,
      height: RECTANGLE_DEPTH,
    });
    expect(footprint('rectangle', 9)).toEqual({
      kind: 'rect',
      width: 5 * SEAT_PITCH,
      height: RECTANGLE_DEPTH,
    });
  });
});

describe('seatPositions', () => {
  it.each<[Shape, number]>([
    ['round', 1],
    ['round', 7],
    ['square', 5],
    ['rectangle', 6],
    ['rectangle', 3],
  ])('When a %s table has %i seats, then each is drawn once, outside the table', (shape, seats) => {
    const outline = footprint(shape, seats);
    const positions = seatPositions(shape, seats);

    expect(positions).toHaveLength(seats);
    for (const p of positions) {
      const outside =
        outline.kind === 'circle'
          ? Math.hypot(p.x, p.y) > outline.radius
          : Math.abs(p.x) > outline.width / 2 || Math.abs(p.y) > outline.height / 2;
      expect(outside).toBe(true);
    }
  });

  it('When a rectangular table seats an even number, then both long sides seat the same', () => {
    const positions = seatPositions('rectangle', 8);

    expect(positions.filter((p) => p.y < 0)).toHaveLength(4);
    expect(positions.filter((p) => p.y > 0)).toHaveLength(4);
  });

  it('When a table has more seats than are drawn, then the drawing stops at the cap', () => {
    expect(seatPositions('round', 1000)).toHaveLength(MAX_DRAWN_SEATS);
  });
});

describe('canvas to page', () => {
  it('When a canvas is drawn 600 pixels wide, then a point maps by one scale from the origin', () => {
    const scale = pixelsPerUnit(1200, 600);

    expect(canvasToPixel({ x: 300, y: 100 }, { x: 10, y: 20 }, scale)).toEqual({ x: 160, y: 70 });
  });

  it('When a footprint is rotated, then its page extent is that of the turned rectangle', () => {
    const rect = { kind: 'rect', width: 120, height: 60 } as const;

    expect(rotatedExtent(rect, 0)).toEqual({ width: 120, height: 60 });
    expect(rotatedExtent(rect, 90).width).toBeCloseTo(60, 9);
    expect(rotatedExtent(rect, 90).height).toBeCloseTo(120, 9);
    expect(rotatedExtent(rect, 45).width).toBeCloseTo((180 * Math.SQRT2) / 2, 9);
    expect(rotatedExtent({ kind: 'circle', radius: 30 }, 77)).toEqual({ width: 60, height: 60 });
  });
});
