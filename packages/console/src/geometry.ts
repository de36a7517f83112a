/**
 * How the console draws a table from the plan's numbers. The plan gives a table's centre
 * (x, y) and rotation in canvas units and degrees, its shape and its seat count; the
 * footprint follows from shape and seats: every seat takes SEAT_PITCH canvas units of the
 * table's edge. Pure functions: the browser test checks the drawing against them.
 */
export type Shape = 'round' | 'square' | 'rectangle';

/** Canvas units of table edge per seat. */
export const SEAT_PITCH = 40;
/** The short side of a rectangular table: one seat deep on either long side. */
export const RECTANGLE_DEPTH = 60;
/** The smallest table drawn, whatever its seats. */
export const MIN_SIDE = 50;
/** Radius of a drawn seat and its gap from the table's edge. */
export const SEAT_RADIUS = 9;
export const SEAT_GAP = 4;
/** More seats than this are not drawn one by one (the footprint still grows with them). */
export const MAX_DRAWN_SEATS = 60;

export type Footprint = { kind: 'circle'; radius: number } | { kind: 'rect'; width: number; height: number };

/** The table's outline in canvas units, centred on its (x, y), before rotation. */
export function footprint(shape: Shape, seatCount: number): Footprint {
  switch (shape) {
    case 'round':
      return { kind: 'circle', radius: Math.max(MIN_SIDE / 2, (seatCount * SEAT_PITCH) / (2 * Math.PI)) };
    case 'square': {
      const side = Math.max(MIN_SIDE, Math.ceil(seatCount / 4) * SEAT_PITCH);
      return { kind: 'rect', width: side, height: side };
    }
    case 'rectangle':
      return {
        kind: 'rect',
        width: Math.max(MIN_SIDE + SEAT_PITCH / 2, Math.ceil(seatCount / 2) * SEAT_PITCH),
        height: RECTANGLE_DEPTH,
      };
  }
}

export interface Point {
  x: number;
  y: number;
}

/** Where the seats sit around the table, relative to its centre, before rotation. */
export function seatPositions(shape: Shape, seatCount: number): Point[] {
  const count = Math.min(seatCount, MAX_DRAWN_SEATS);
  const outline = footprint(shape, seatCount);
  const out = SEAT_RADIUS + SEAT_GAP;
  if (outline.kind === 'circle') {
    return Array.from({ length: count }, (_, i) => {
      const angle = (2 * Math.PI * i) / count - Math.PI / 2;
      return { x: (outline.radius + out) * Math.cos(angle), y: (outline.radius + out) * Math.sin(angle) };
    });
  }
  const { width, height } = outline;
  // Long sides first: a rectangle seats along top and bottom, a square on all four sides.
  const sides = shape === 'rectangle' ? 2 : 4;
  const perSide = Array.from(
    { length: sides },
    (_, s) => Math.floor(count / sides) + (s < count % sides ? 1 : 0),
  );
  const along = (n: number, length: number) =>
    Array.from({ length: n }, (_, i) => -length / 2 + (length * (i + 0.5)) / n);
  const [top = 0, bottom = 0, right = 0, left = 0] = perSide;
  return [
    ...along(top, width).map((x) => ({ x, y: -height / 2 - out })),
    ...along(right, height).map((y) => ({ x: width / 2 + out, y })),
    ...along(bottom, width).map((x) => ({ x, y: height / 2 + out })),
    ...along(left, height).map((y) => ({ x: -width / 2 - out, y })),
  ];
}

/** Pixels per canvas unit when a room's canvas is drawn `pixelWidth` pixels wide. */
export const pixelsPerUnit = (canvasWidth: number, pixelWidth: number): number => pixelWidth / canvasWidth;

/** A canvas point on the page, for a room drawn with its top-left corner at `origin`. */
export function canvasToPixel(point: Point, origin: Point, scale: number): Point {
  return { x: origin.x + point.x * scale, y: origin.y + point.y * scale };
}

/** The axis-aligned size of a footprint turned by `rotation` degrees. */
export function rotatedExtent(outline: Footprint, rotation: number): { width: number; height: number } {
  if (outline.kind === 'circle') return { width: 2 * outline.radius, height: 2 * outline.radius };
  const radians = (rotation * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  return {
    width: outline.width * cos + outline.height * sin,
    height: outline.width * sin + outline.height * cos,
  };
}
