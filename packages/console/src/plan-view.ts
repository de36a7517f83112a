import { changesByTable, type ChangeKind } from './changes';
import { h, s } from './dom';
import { footprint, rotatedExtent, seatPositions, SEAT_GAP, SEAT_RADIUS, type Shape } from './geometry';
import { occupancyBadge, ordersByTable } from './occupancy';
import type { Order, PublishPreview, PublishedTable, WorkingPlan, WorkingRoom } from './types';

export type PlanSide = 'working' | 'published';

export interface PlanModel {
  working: WorkingPlan;
  preview: PublishPreview;
  orders: readonly Order[];
  side: PlanSide;
  /** The width the widest room may take, in pixels. */
  width: number;
}

const LABEL_SIZE = 22;
/** Canvas units drawn around every canvas, so a table on an edge shows whole (its footprint may overhang). */
export const CANVAS_MARGIN = 60;

/** Pixels per canvas unit, one for every room so that rooms compare: the widest fills `width` pixels. */
export const roomScale = (rooms: readonly { canvasWidth: number }[], width: number): number =>
  width / Math.max(1, ...rooms.map((r) => r.canvasWidth + 2 * CANVAS_MARGIN));

/**
 * Every room drawn to scale: one SVG per room whose viewBox is the room's canvas, so one
 * canvas unit is the same number of pixels along both axes and every table sits at its
 * (x, y). The working side marks what a publish would change and outlines, dashed, where
 * an updated table stands in the published plan; the published side draws the snapshot.
 */
export function planView(model: PlanModel): HTMLElement {
  const published = new Map((model.preview.published?.rooms ?? []).map((room) => [room.id, room]));
  const publishedTables = new Map(
    (model.preview.published?.rooms ?? []).flatMap((room) => room.tables.map((t) => [t.id, t] as const)),
  );
  const changes =
    model.side === 'working' ? changesByTable(model.preview.changes) : new Map<string, ChangeKind[]>();
  const occupied = ordersByTable(model.orders);
  const scale = roomScale(model.working.rooms, model.width);
  const rooms = model.working.rooms.map((room) => {
    const tables = model.side === 'working' ? room.tables : (published.get(room.id)?.tables ?? []);
    const ghosts =
      model.side === 'working'
        ? room.tables.flatMap((t) => {
            const before = publishedTables.get(t.id);
            return before && changes.get(t.id)?.includes('updated') ? [ghost(before)] : [];
          })
        : [];
    return roomView(room, scale, [
      ...room.decorations.map(decoration),
      ...ghosts,
      ...tables.map((t) => tableView(t, changes.get(t.id) ?? [], occupied.get(t.id))),
    ]);
  });
  return h('div', { class: 'rooms', 'data-side': model.side }, ...rooms);
}

function roomView(room: WorkingRoom, scale: number, content: SVGElement[]): HTMLElement {
  const { canvasWidth: width, canvasHeight: height } = room;
  const m = CANVAS_MARGIN;
  return h(
    'figure',
    { class: 'room', 'data-room-id': room.id },
    h('figcaption', {}, `${room.name} · canvas ${width} × ${height}`),
    s(
      'svg',
      {
        class: 'room-canvas',
        'data-room-id': room.id,
        viewBox: `${-m} ${-m} ${width + 2 * m} ${height + 2 * m}`,
        width: (width + 2 * m) * scale,
        height: (height + 2 * m) * scale,
        role: 'img',
        'aria-label': `Floor plan of ${room.name}`,
      },
      s('rect', { class: 'canvas', x: 0, y: 0, width, height }),
      ...content,
    ),
  );
}

function outline(shape: Shape, seatCount: number, className: string): SVGElement {
  const f = footprint(shape, seatCount);
  return f.kind === 'circle'
    ? s('circle', { class: className, cx: 0, cy: 0, r: f.radius })
    : s('rect', {
        class: className,
        x: -f.width / 2,
        y: -f.height / 2,
        width: f.width,
        height: f.height,
        rx: 6,
      });
}

function tableView(table: PublishedTable, changes: ChangeKind[], order: Order | undefined): SVGGElement {
  const classes = [
    'table',
    table.active ? null : 'inactive',
    order ? 'occupied' : null,
    ...changes.map((c) => `change-${c}`),
  ].filter(Boolean);
  const seats = seatPositions(table.shape, table.seatCount).map((p) =>
    s('circle', { class: 'seat', cx: p.x, cy: p.y, r: SEAT_RADIUS }),
  );
  const summary = [
    `${table.label}: ${table.shape}, ${table.seatCount} seats, ${table.minCovers}-${table.maxCovers} covers`,
    table.active ? null : 'inactive',
    order ? `occupied: ${occupancyBadge(order)}` : null,
    changes.length > 0 ? `publish would: ${changes.join(', ')}` : null,
  ].filter(Boolean);
  return s(
    'g',
    {
      class: classes.join(' '),
      'data-table-id': table.id,
      'data-label': table.label,
      'data-order-id': order?.id,
      transform: `translate(${table.x} ${table.y})`,
    },
    s('title', {}, summary.join('; ')),
    s(
      'g',
      { class: 'table-body', transform: `rotate(${table.rotation})` },
      ...seats,
      outline(table.shape, table.seatCount, 'table-top'),
    ),
    s(
      'text',
      {
        class: 'table-label',
        'font-size': LABEL_SIZE,
        'text-anchor': 'middle',
        'dominant-baseline': 'central',
      },
      table.label,
    ),
    order
      ? s(
          'text',
          {
            class: 'table-badge',
            'font-size': LABEL_SIZE * 0.8,
            'text-anchor': 'middle',
            'dominant-baseline': 'hanging',
            y:
              rotatedExtent(footprint(table.shape, table.seatCount), table.rotation).height / 2 +
              2 * SEAT_RADIUS +
              SEAT_GAP,
          },
          occupancyBadge(order),
        )
      : null,
  );
}

/** Where an updated table stands in the published plan. */
function ghost(table: PublishedTable): SVGGElement {
  return s(
    'g',
    { class: 'ghost', 'data-ghost-of': table.id, transform: `translate(${table.x} ${table.y})` },
    s('g', { transform: `rotate(${table.rotation})` }, outline(table.shape, table.seatCount, 'ghost-top')),
  );
}

function decoration(d: WorkingRoom['decorations'][number]): SVGGElement {
  const shape =
    d.kind === 'plant'
      ? s('ellipse', { cx: 0, cy: 0, rx: d.width / 2, ry: d.height / 2 })
      : s('rect', { x: -d.width / 2, y: -d.height / 2, width: d.width, height: d.height });
  return s(
    'g',
    { class: `decoration decoration-${d.kind}`, transform: `translate(${d.x} ${d.y}) rotate(${d.rotation})` },
    d.kind === 'label' ? null : shape,
    d.text === null
      ? null
      : s(
          'text',
          { 'font-size': LABEL_SIZE, 'text-anchor': 'middle', 'dominant-baseline': 'central' },
          d.text,
        ),
  );
}
