import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { footprint, rotatedExtent, type Shape } from '@pis/console/src/geometry';
import { launchChromium } from './support/chromium';
import { pickLocation } from './support/console-page';
import { Harness, type TestLocation } from './support/harness';
import { watch } from './support/page-watch';
import { Receiver } from './support/receiver';
import { BACKOFFICE_TOKEN } from './support/test-api';
import { P, reservation, type Json } from './support/wire';

/**
 * The operator console at /console in a real Chromium, against the real API (in-process
 * webhook delivery to a receiver on 127.0.0.1): the plan drawn to scale, publish, live
 * occupancy and the delivery log with redeliver.
 */
const ARTIFACTS = join(__dirname, '../../../.test-artifacts');

let h: Harness;
let receiver: Receiver;
let browser: Browser;
beforeAll(async () => {
  receiver = await Receiver.start();
  h = await Harness.start({ WEBHOOK_RETRY_DELAYS_MS: '30,30', WEBHOOK_TIMEOUT_MS: '2000' });
  await h.runtime.start();
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await h?.stop();
  await receiver?.close();
});

interface PlanTable {
  externalId: string;
  label: string;
  seatCount: number;
  x: number;
  y: number;
  shape: Shape;
  rotation?: number;
}

/** Two rooms of different canvases; every shape, rotations of 0, 45 and 90 degrees, a table on a corner. */
const HALL = {
  externalId: 'hall',
  name: 'Hall',
  canvasWidth: 1200,
  canvasHeight: 800,
  decorations: [{ kind: 'bar', x: 600, y: 60, width: 400, height: 60, text: 'Bar' }],
  tables: [
    { externalId: 'round4', label: '1', seatCount: 4, x: 150, y: 150, shape: 'round' },
    { externalId: 'square4', label: '2', seatCount: 4, x: 420, y: 220, shape: 'square', rotation: 45 },
    { externalId: 'rect8', label: '3', seatCount: 8, x: 700, y: 480, shape: 'rectangle', rotation: 90 },
    { externalId: 'rect6', label: '4', seatCount: 6, x: 1000, y: 650, shape: 'rectangle' },
    { externalId: 'corner', label: '5', seatCount: 2, x: 1200, y: 0, shape: 'round' },
  ] as PlanTable[],
};
const TERRACE = {
  externalId: 'terrace',
  name: 'Terrace',
  canvasWidth: 500,
  canvasHeight: 900,
  tables: [{ externalId: 'big', label: 'T1', seatCount: 10, x: 250, y: 300, shape: 'round' }] as PlanTable[],
};

interface Opened {
  loc: TestLocation;
  page: Page;
  seen: ReturnType<typeof watch>;
  /** Table ids by the import's externalId. */
  ids: Record<string, string>;
  hookPath: string;
}

/** Imports `rooms` for `loc` (a draft); the table ids by the import's externalId. */
async function importRooms(loc: TestLocation, rooms: object[]): Promise<Record<string, string>> {
  const imported = await loc.api.post(`${P}/floorplan/import`).send({ rooms }).expect(201);
  return Object.fromEntries(
    (imported.body.mapping as Json[]).map((m) => [m['externalTableId'] as string, m['tableId'] as string]),
  );
}

/** A location with the two rooms imported (a draft) and a webhook endpoint, opened in the console. */
async function openConsole(): Promise<Opened> {
  const loc = await h.location({ plan: 'none' });
  const ids = await importRooms(loc, [HALL, TERRACE]);
  const hookPath = `/console-hooks/${loc.id}`;
  await loc.api
    .put(`${P}/webhook-endpoint`)
    .send({ url: `${receiver.origin}${hookPath}` })
    .expect(200);

  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const seen = watch(page);
  await page.goto(`${h.api.baseUrl}/console`);
  await page.fill('#token', BACKOFFICE_TOKEN);
  await page.click('.token-form button[type=submit]');
  await pickLocation(page, loc.name);
  await page.locator('.plan-status[data-status="draft"]').waitFor();
  return { loc, page, seen, ids, hookPath };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the page draws, read in one evaluation so that no redraw can fall between two reads. */
interface Drawn {
  canvases: Record<string, Box>;
  tables: Record<string, Box>;
  ghosts: Record<string, Box>;
}

const MEASURE = `(() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
  const drawn = { canvases: {}, tables: {}, ghosts: {} };
  for (const svg of document.querySelectorAll('svg.room-canvas')) drawn.canvases[svg.dataset.roomId] = box(svg.querySelector('rect.canvas'));
  for (const g of document.querySelectorAll('g.table')) drawn.tables[g.dataset.tableId] = box(g.querySelector('.table-top'));
  for (const g of document.querySelectorAll('g.ghost')) drawn.ghosts[g.dataset.ghostOf] = box(g.querySelector('.ghost-top'));
  return drawn;
})()`;

const measure = (page: Page) => page.evaluate(MEASURE) as Promise<Drawn>;

const centre = (b: Box) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });

interface CanvasTransform {
  /** The canvas's (0, 0) on the page, in pixels. */
  origin: { x: number; y: number };
  /** Pixels per canvas unit. */
  scale: number;
}

/** The room's canvas on the page: its top-left corner and one scale for both axes. */
function canvasTransform(
  drawn: Drawn,
  roomId: string,
  canvas: { canvasWidth: number; canvasHeight: number },
): CanvasTransform {
  const rect = drawn.canvases[roomId]!;
  const scale = rect.width / canvas.canvasWidth;
  expect(rect.height).toBeCloseTo(canvas.canvasHeight * scale, 0);
  return { origin: { x: rect.x, y: rect.y }, scale };
}

/**
 * The table's outline on the page against its x, y, rotation, shape and seats through the
 * canvas transform (getBoundingClientRect of an SVG shape is its geometry, stroke aside).
 */
function expectDrawnAt(drawn: Drawn, tableId: string, table: PlanTable, at: CanvasTransform) {
  const outline = drawn.tables[tableId];
  if (!outline) throw new Error(`table ${table.label} is not drawn`);
  const extent = rotatedExtent(footprint(table.shape, table.seatCount), table.rotation ?? 0);
  // Within half a pixel: the numbers are layout geometry, not rasterised pixels.
  expect({ table: table.label, ...centre(outline), width: outline.width, height: outline.height }).toEqual({
    table: table.label,
    x: expect.closeTo(at.origin.x + table.x * at.scale, 0),
    y: expect.closeTo(at.origin.y + table.y * at.scale, 0),
    width: expect.closeTo(extent.width * at.scale, 0),
    height: expect.closeTo(extent.height * at.scale, 0),
  });
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });

it('When the operator opens a location, publishes it, a reservation is seated and a delivery redelivered, then the console shows each to scale and live, with no error and nothing off this machine', async () => {
  const { loc, page, seen, ids, hookPath } = await openConsole();
  const plan = (await h.operator.get(loc.ops('/floorplan/working')).expect(200)).body as Json;
  const [hallRoom, terraceRoom] = plan['rooms'] as Json[];

  // Drawn to scale: every table's outline where its x, y, rotation and seats put it.
  const drawn = await measure(page);
  expect(Object.keys(drawn.canvases)).toHaveLength(2);
  const hall = canvasTransform(drawn, hallRoom!['id'] as string, HALL);
  const terrace = canvasTransform(drawn, terraceRoom!['id'] as string, TERRACE);
  // One scale for every room, so rooms compare.
  expect(terrace.scale).toBeCloseTo(hall.scale, 3);
  for (const table of HALL.tables) expectDrawnAt(drawn, ids[table.externalId]!, table, hall);
  for (const table of TERRACE.tables) expectDrawnAt(drawn, ids[table.externalId]!, table, terrace);
  expect(await page.locator('g.table').count()).toBe(6);
  // Never published: a publish would add every table.
  expect(await page.locator('dd[data-change="added"]').allTextContents()).toEqual([
    '1',
    '2',
    '3',
    '4',
    '5',
    'T1',
  ]);
  await shot(page, 'console-draft.png');

  // Publish from the page: version 1 reaches the provider and nothing is pending any more.
  await page.click('[data-action="publish"]');
  await page.click('[data-action="confirm-publish"]');
  await page.locator('.plan-status[data-version="1"]').waitFor();
  expect((await loc.api.get(`${P}/floorplan`).expect(200)).body.version).toBe(1);
  expect(await page.locator('p.changes.empty').isVisible()).toBe(true);

  // Draft edits: a deactivated table is greyed, a moved one drawn at its new place with its published place outlined.
  await h.operator
    .patch(loc.ops(`/tables/${ids['rect6']}`))
    .send({ active: false })
    .expect(200);
  await h.operator
    .patch(loc.ops(`/tables/${ids['round4']}`))
    .send({ x: 300, y: 600 })
    .expect(200);
  await page.click('[data-action="refresh-plan"]');
  await page.locator(`g.table.inactive.change-deactivated[data-table-id="${ids['rect6']}"]`).waitFor();
  await page.locator(`g.ghost[data-ghost-of="${ids['round4']}"]`).waitFor();
  const edited = await measure(page);
  const now = canvasTransform(edited, hallRoom!['id'] as string, HALL);
  expectDrawnAt(edited, ids['round4']!, { ...HALL.tables[0]!, x: 300, y: 600 }, now);
  expect(centre(edited.ghosts[ids['round4']!]!)).toEqual({
    x: expect.closeTo(now.origin.x + 150 * now.scale, 0),
    y: expect.closeTo(now.origin.y + 150 * now.scale, 0),
  });
  expect(await page.locator('dd[data-change="deactivated"]').allTextContents()).toEqual(['4']);
  expect(await page.locator('dd[data-change="updated"]').allTextContents()).toEqual([
    '1: x 150 → 300, y 150 → 600',
  ]);
  const inactiveFill = await page.evaluate(
    `getComputedStyle(document.querySelector('g.table.inactive .table-top')).fill`,
  );
  const freeFill = await page.evaluate(
    `getComputedStyle(document.querySelector('g.table:not(.inactive) .table-top')).fill`,
  );
  expect(inactiveFill).not.toEqual(freeFill);
  await shot(page, 'console-changes.png');

  // A reservation seated through the provider API shows on its table, with covers and the check, by polling.
  const seated = await loc.api
    .post(`${P}/reservations`)
    .send(reservation({ status: 'seated', tableIds: [ids['square4']], covers: 3 }))
    .expect(201);
  const orderId = seated.body.reservation.linkedOrderId as string;
  await h.operator
    .post(loc.ops(`/orders/${orderId}/items`))
    .send({ label: 'Wine', amountMinor: 1250, quantity: 2 })
    .expect(200);
  const occupied = page.locator(
    `g.table.occupied[data-table-id="${ids['square4']}"][data-order-id="${orderId}"]`,
  );
  await occupied.waitFor({ timeout: 10_000 });
  await page
    .locator(`tr[data-order-id="${orderId}"] td[data-field="spend"]`, { hasText: '€25.00' })
    .waitFor({ timeout: 10_000 });
  expect(await occupied.locator('.table-badge').textContent()).toBe('3 cov · €25.00');
  expect(await page.locator('g.table.occupied').count()).toBe(1);
  await shot(page, 'console-occupied.png');

  // The delivery log: the publish and the seating were delivered; redeliver the publish.
  await receiver.until(
    () => (receiver.at(hookPath).length >= 3 ? true : undefined),
    10_000,
    'three deliveries',
  );
  await page.click('[data-action="refresh-deliveries"]');
  const publishedRow = page.locator('tr[data-status="succeeded"]', { hasText: 'floorplan.published' });
  await publishedRow.waitFor();
  const deliveryId = (await publishedRow.getAttribute('data-delivery-id'))!;
  const delivery = (
    (await h.operator.get(loc.ops('/webhook-deliveries')).expect(200)).body.deliveries as Json[]
  ).find((d) => d['id'] === deliveryId)!;
  const before = receiver.at(hookPath).filter((r) => r.headers['webhook-id'] === delivery['eventId']).length;
  await publishedRow.locator('button.redeliver').click();
  await page.locator('#notice', { hasText: 'queued again' }).waitFor();
  await receiver.until(
    () =>
      receiver.at(hookPath).filter((r) => r.headers['webhook-id'] === delivery['eventId']).length > before
        ? true
        : undefined,
    10_000,
    'the redelivery',
  );
  await page.click('[data-action="refresh-deliveries"]');
  await page
    .locator(`tr[data-delivery-id="${deliveryId}"][data-status="succeeded"] td`, { hasText: /^2$/ })
    .waitFor();
  await shot(page, 'console-deliveries.png');

  expect({ errors: seen.errors, failed: seen.failed, offHost: seen.offHost }).toEqual({
    errors: [],
    failed: [],
    offHost: [],
  });
  expect(seen.urls.filter((url) => url.includes(BACKOFFICE_TOKEN))).toEqual([]);
  await page.close();
}, 120_000);

/** The colours a `selector` of the page is drawn in: its computed fill and stroke, and the legend's swatches'. */
const COLOURS = `((selector) => {
  const style = (el) => getComputedStyle(el);
  const swatches = {};
  for (const el of document.querySelectorAll('.legend .swatch')) {
    swatches[el.className.replace('swatch', '').trim() || 'free'] = [style(el).borderTopColor, style(el).backgroundColor];
  }
  const drawn = [...document.querySelectorAll(selector)].flatMap((el) => [style(el).fill, style(el).stroke]);
  return { swatches, drawn };
})`;

/** Hue in degrees and saturation (0-1) of a computed `rgb(r, g, b)` or `rgba(...)` colour. */
function hueAndSaturation(colour: string): { hue: number; saturation: number } {
  const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((n) => Number(n) / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const delta = max - min;
  const lightness = (max + min) / 2;
  const saturation = delta === 0 ? 0 : delta / (1 - Math.abs(2 * lightness - 1));
  const hue =
    delta === 0
      ? 0
      : max === r
        ? 60 * (((g - b) / delta + 6) % 6)
        : max === g
          ? 60 * ((b - r) / delta + 2)
          : 60 * ((r - g) / delta + 4);
  return { hue, saturation };
}

it("When the console is 1400 px wide and a seated party has a check, then every column of the occupancy table is on screen, and plants are not drawn in the legend's added green", async () => {
  const loc = await h.location({ plan: 'none' });
  const terrace = {
    ...TERRACE,
    decorations: [
      { kind: 'plant', x: 400, y: 700, width: 80, height: 80 },
      { kind: 'plant', x: 100, y: 700, width: 60, height: 60, text: 'Fig' },
    ],
  };
  const ids = await importRooms(loc, [HALL, terrace]);
  await h.operator.post(loc.ops('/floorplan/publish')).expect(200);
  const seated = await loc.api
    .post(`${P}/reservations`)
    .send(
      reservation({
        externalId: 'a-long-reservation-id-0001',
        status: 'seated',
        tableIds: [ids['rect8'], ids['rect6']],
        covers: 12,
      }),
    )
    .expect(201);
  const orderId = seated.body.reservation.linkedOrderId as string;
  await h.operator
    .post(loc.ops(`/orders/${orderId}/items`))
    .send({ label: 'Tasting menu', amountMinor: 1234567, quantity: 12 })
    .expect(200);

  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const seen = watch(page);
  await page.goto(`${h.api.baseUrl}/console#location=${loc.id}`);
  await page.fill('#token', BACKOFFICE_TOKEN);
  await page.click('.token-form button[type=submit]');
  const row = page.locator(`tr[data-order-id="${orderId}"]`);
  await row.locator('td[data-field="balance"]', { hasText: '€' }).waitFor({ timeout: 10_000 });

  // Each header and cell is where the page shows it: inside the window, and the element hit at its centre.
  const hidden = await page.evaluate(`(() => {
    // Down to the table (the window scrolls vertically); nothing is scrolled sideways.
    const table = document.querySelector('table.orders');
    window.scrollTo(0, table.getBoundingClientRect().top + window.scrollY - 100);
    const width = document.documentElement.clientWidth;
    return [...table.querySelectorAll('th, td')].flatMap((cell) => {
      const box = cell.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      const shown = box.left >= 0 && box.right <= width && hit !== null && cell.contains(hit);
      return shown ? [] : [cell.textContent + ' (' + Math.round(box.left) + '-' + Math.round(box.right) + ' of ' + width + ')'];
    });
  })()`);
  const headers = await page.locator('table.orders th').allTextContents();
  await shot(page, 'console-1400.png');

  expect(headers).toEqual(['Tables', 'Covers', 'Reservation', 'Opened', 'Spend', 'Total', 'Balance']);
  expect(hidden).toEqual([]);
  // The page itself does not scroll sideways at this width.
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1400);

  // Plants are drawn, but not in the legend's "added" green: a green plant would read as a table a publish adds.
  const colours = (await page.evaluate(`${COLOURS}('.decoration-plant ellipse')`)) as {
    swatches: Record<string, string[]>;
    drawn: string[];
  };
  expect(colours.drawn).toHaveLength(4);
  const added = hueAndSaturation(colours.swatches['added']![0]!);
  expect(added.saturation).toBeGreaterThan(0.3);
  for (const colour of colours.drawn) {
    const plant = hueAndSaturation(colour);
    const apart = Math.min(Math.abs(plant.hue - added.hue), 360 - Math.abs(plant.hue - added.hue));
    expect({ colour, distinct: plant.saturation <= 0.15 || apart >= 45 }).toEqual({ colour, distinct: true });
  }
  expect([...seen.errors, ...seen.failed, ...seen.offHost]).toEqual([]);
  await page.close();
}, 60_000);

it('When the console is opened without a token, then it asks for one and calls no API; a refused token is forgotten', async () => {
  const page = await browser.newPage();
  const seen = watch(page);
  await page.goto(`${h.api.baseUrl}/console#location=${(await h.location({ plan: 'draft' })).id}`);
  await page.locator('#token').waitFor();
  expect(seen.urls.filter((url) => url.includes('/api/'))).toEqual([]);

  await page.fill('#token', 'not-the-backoffice-token');
  await page.click('.token-form button[type=submit]');
  await page.locator('#notice[role="alert"]', { hasText: 'token was refused' }).waitFor();

  expect(await page.locator('#token').isVisible()).toBe(true);
  expect(await page.evaluate('sessionStorage.length')).toBe(0);
  expect(seen.failed.every((f) => f.endsWith(' 401'))).toBe(true);
  expect(seen.offHost).toEqual([]);
  await page.close();
}, 60_000);

it('When the token is accepted, then it is kept in the tab only, sent as a bearer header, and forgotten on request', async () => {
  const loc = await h.location({ tables: 2 });
  const page = await browser.newPage();
  const seen = watch(page);
  const authorizations: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/backoffice/')) authorizations.push(r.headers()['authorization'] ?? '');
  });
  await page.goto(`${h.api.baseUrl}/console#location=${loc.id}`);
  await page.fill('#token', BACKOFFICE_TOKEN);
  await page.click('.token-form button[type=submit]');
  await page.locator('.plan-status[data-version="1"]').waitFor();

  expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual(['pis.console.backofficeToken']);
  expect(await page.evaluate('localStorage.length')).toBe(0);
  expect(authorizations.length).toBeGreaterThan(0);
  expect(new Set(authorizations)).toEqual(new Set([`Bearer ${BACKOFFICE_TOKEN}`]));
  expect(seen.urls.filter((url) => url.includes(BACKOFFICE_TOKEN))).toEqual([]);

  await page.click('[data-action="sign-out"]');
  await page.locator('#token').waitFor();
  expect(await page.evaluate('sessionStorage.length')).toBe(0);
  expect([...seen.errors, ...seen.failed, ...seen.offHost]).toEqual([]);
  await page.close();
}, 60_000);

describe('GET /console over HTTP', () => {
  it('When /console is requested without a credential, then 200 HTML that loads only its own assets, under a same-origin policy without inline code', async () => {
    const res = await h.anonymous.get('/console').expect(200);

    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const policy = res.headers['content-security-policy'] as string;
    expect(policy).toMatch(/default-src 'self'/);
    expect(policy).toMatch(/script-src 'self';/);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers['cache-control']).toBe('no-store');
    const sources = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.sort()).toEqual(['/console/assets/console.css', '/console/assets/console.js']);
    const script = await h.anonymous.get('/console/assets/console.js').expect(200);
    const style = await h.anonymous.get('/console/assets/console.css').expect(200);
    expect(script.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(style.headers['content-type']).toMatch(/^text\/css/);
    expect(script.text.length).toBeGreaterThan(1000);
    expect(script.headers['content-security-policy']).toBe(policy);
  });

  it('When a browser asks for /favicon.ico, then 200 with an icon of 16 and 32 px, no credential needed', async () => {
    const res = await h.anonymous
      .get('/favicon.ico')
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const icon = res.body as Buffer;

    expect(res.headers['content-type']).toBe('image/x-icon');
    // ICONDIR: reserved 0, type 1 (icon), two images; each entry's width and its PNG.
    expect([icon.readUInt16LE(0), icon.readUInt16LE(2), icon.readUInt16LE(4)]).toEqual([0, 1, 2]);
    const images = [0, 1].map((i) => {
      const entry = 6 + 16 * i;
      const at = icon.readUInt32LE(entry + 12);
      return { size: icon.readUInt8(entry), png: icon.subarray(at, at + 8).toString('latin1') };
    });
    expect(images).toEqual([
      { size: 16, png: '\x89PNG\r\n\x1a\n' },
      { size: 32, png: '\x89PNG\r\n\x1a\n' },
    ]);
    expect((await h.anonymous.post('/favicon.ico')).status).toBe(405);
  });

  it('When another console file or method is asked for, then 404 or 405 not_found', async () => {
    expect((await h.anonymous.get('/console/assets/main.ts')).status).toBe(404);
    const res = await h.anonymous.post('/console');
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('not_found');
    expect(res.headers['allow']).toBe('GET, HEAD');
  });
});
