import {
  addOrderDiscount,
  addOrderItem,
  addOrderPayment,
  createReservation,
  EVENT_TYPES,
  finishOrderAs,
  getWorkingPlan,
  importFloorPlan,
  issueApiKey,
  listReservations,
  moveOrderToTables,
  openWalkInOrder,
  publishFloorPlan,
  getPublishedFloorPlan,
  registerWebhookEndpoint,
  rotateWebhookSecret,
  setOrderServiceStatus,
  updateReservation,
  voidOrderItem,
  Instant,
} from '@pis/domain';
import { createInMemoryDeps, expectOk, givenLocation, givenPublishedLocation } from '@pis/testing';
import { importBody, minimalReservationBody } from '../../test/sample-bodies';
import { createValidator } from '../validation/validator';
import type { ComponentName } from '../schemas/components';
import type { FloorPlanImportRequest, ReservationRequest } from '../wire-types';
import {
  toApiKeyResponse,
  toLocationResponse,
  toOrderListResponse,
  toOrderResponse,
} from './backoffice.mapper';
import { toImportInput } from './floor-plan-request.mapper';
import {
  toImportResultResponse,
  toPublishedFloorPlanResponse,
  toWorkingPlanResponse,
} from './floor-plan-response.mapper';
import { toReservationInput } from './reservation-request.mapper';
import { toReservationListResponse, toReservationWriteResponse } from './reservation-response.mapper';
import { toWebhookEndpointResponse, toWebhookEventBody } from './webhook.mapper';

const validator = createValidator();
const expectValid = (name: ComponentName, body: unknown) =>
  expect(validator.check(name, body)).toEqual({ ok: true, value: body });

/** Bodies in, through the real use cases over in-memory adapters, responses out: each must match its schema. */
describe('Responses built from use-case results', () => {
  it('When a reservation is created and then seated through the use cases, then both write responses validate', async () => {
    const { deps, store } = createInMemoryDeps();
    const place = await givenPublishedLocation(deps, { tables: 2 });
    const body = { ...minimalReservationBody(), tableIds: [place.tableIds[0]] } as ReservationRequest;
    const created = expectOk(
      await createReservation(deps, { locationId: place.locationId, input: toReservationInput(body) }),
    );
    const seatedBody = {
      ...body,
      status: 'seated',
      updatedAt: '2026-11-21T19:05+01:00',
    } as ReservationRequest;
    const seated = expectOk(
      await updateReservation(deps, {
        locationId: place.locationId,
        externalId: body.externalId,
        input: toReservationInput(seatedBody),
      }),
    );

    expectValid('ReservationWriteResponse', toReservationWriteResponse(created));
    const response = toReservationWriteResponse(seated);
    expectValid('ReservationWriteResponse', response);
    expect(response.reservation.linkedOrderId).toBe(store.orders(place.locationId)[0]!.id);
    expect(response.reservation.arrivedAt).toBe('2026-11-21T18:00:00.000Z');
  });

  it('When the window is listed through the use case, then the list response validates and carries a cursor', async () => {
    const { deps } = createInMemoryDeps();
    const location = await givenLocation(deps);
    for (const externalId of ['a', 'b', 'c']) {
      const input = toReservationInput({ ...minimalReservationBody(), externalId } as ReservationRequest);
      expectOk(await createReservation(deps, { locationId: location.id, input }));
    }
    const page = expectOk(
      await listReservations(deps, {
        locationId: location.id,
        from: Instant.parse('2026-11-21T00:00Z')!,
        to: Instant.parse('2026-11-22T00:00Z')!,
        limit: 2,
        after: null,
      }),
    );
    const response = toReservationListResponse(page, deps.clock.now());
    expectValid('ReservationListResponse', response);
    expect(response.reservations).toHaveLength(2);
    expect(response.nextCursor).toEqual(expect.any(String));
  });

  it('When the sample plan is imported and published, then import result, working plan, published plan and event validate', async () => {
    const { deps, store } = createInMemoryDeps();
    const location = await givenLocation(deps);
    const input = toImportInput(importBody() as FloorPlanImportRequest);
    const imported = expectOk(await importFloorPlan(deps, { locationId: location.id, input }));
    expectValid('ImportResult', toImportResultResponse(imported));
    expectValid(
      'WorkingPlan',
      toWorkingPlanResponse(expectOk(await getWorkingPlan(deps, { locationId: location.id }))),
    );

    expectOk(await publishFloorPlan(deps, { locationId: location.id }));
    const plan = expectOk(await getPublishedFloorPlan(deps, { locationId: location.id }));
    expectValid('PublishedFloorPlan', toPublishedFloorPlanResponse(plan));
    const working = toWorkingPlanResponse(expectOk(await getWorkingPlan(deps, { locationId: location.id })));
    expect(working).toMatchObject({ status: 'published', publishedVersion: 1 });
    const [event] = store.events(location.id);
    expect(validator.webhookEventBody(toWebhookEventBody(event!))).toMatchObject({ ok: true });
  });

  it('When a walk-in order opens, takes an item, moves and closes, then every order response and event validates', async () => {
    const { deps, store } = createInMemoryDeps();
    const place = await givenPublishedLocation(deps, { tables: 3 });
    const opened = expectOk(
      await openWalkInOrder(deps, {
        locationId: place.locationId,
        tableIds: [place.tableIds[0]!],
        covers: 2,
      }),
    );
    const orderId = opened.id;
    const withItem = expectOk(
      await addOrderItem(deps, {
        locationId: place.locationId,
        orderId,
        label: 'Wine',
        amountMinor: 3200,
        quantity: 2,
      }),
    );
    const till = { locationId: place.locationId, orderId };
    const itemId = withItem.check.items[0]!.id;
    const checked = [
      expectOk(
        await addOrderItem(deps, {
          ...till,
          label: 'Soup',
          amountMinor: 900,
          quantity: 1,
          taxRateBps: 1000,
          course: 'starter',
        }),
      ),
      expectOk(await addOrderDiscount(deps, { ...till, label: 'Regulars', amountMinor: 500 })),
      expectOk(await addOrderPayment(deps, { ...till, amountMinor: 4000, tipMinor: 400, tender: 'card' })),
      expectOk(await voidOrderItem(deps, { ...till, itemId })),
      expectOk(await setOrderServiceStatus(deps, { ...till, status: 'bill_requested' })),
    ];
    const moved = expectOk(
      await moveOrderToTables(deps, {
        locationId: place.locationId,
        orderId,
        tableIds: [place.tableIds[1]!],
      }),
    );
    const closed = expectOk(
      await finishOrderAs(deps, { locationId: place.locationId, orderId, how: 'closed' }),
    );

    for (const order of [opened, withItem, ...checked, moved, closed])
      expectValid('Order', toOrderResponse(order));
    expect(toOrderResponse(withItem).spendMinor).toBe(6400);
    expect(toOrderResponse(withItem).check.totalMinor).toBe(6400);
    expect(toOrderResponse(closed)).toMatchObject({
      serviceStatus: 'bill_requested',
      spendMinor: 400,
      check: {
        subtotalMinor: 900,
        discountMinor: 500,
        totalMinor: 400,
        paidMinor: 4000,
        tipMinor: 400,
        balanceMinor: -3600,
      },
    });
    expectValid('OrderListResponse', toOrderListResponse({ orders: [closed] }));
    const types = store.events(place.locationId).map((e) => {
      const body = toWebhookEventBody(e);
      expect(validator.webhookEventBody(body)).toEqual({ ok: true, value: body });
      return body.type;
    });
    expect(new Set(types)).toEqual(new Set(EVENT_TYPES));
  });

  it('When an endpoint is registered and its secret rotated, then the response shows the new current secret', async () => {
    const { deps } = createInMemoryDeps();
    const location = await givenLocation(deps);
    const first = expectOk(
      await registerWebhookEndpoint(deps, {
        locationId: location.id,
        url: 'https://p.example/h',
        events: null,
      }),
    );
    const rotated = expectOk(await rotateWebhookSecret(deps, { locationId: location.id }));
    const before = toWebhookEndpointResponse(first);
    const after = toWebhookEndpointResponse(rotated);
    expectValid('WebhookEndpoint', after);
    expect(after.secret).not.toBe(before.secret);
    expect(after.events).toEqual([...EVENT_TYPES]);
  });

  it('When a location and a key are created, then their responses validate', async () => {
    const { deps } = createInMemoryDeps();
    const location = await givenLocation(deps, { brand: 'acme' });
    expectValid('Location', toLocationResponse(location));
    expectValid('ApiKey', toApiKeyResponse(expectOk(await issueApiKey(deps, { locationId: location.id }))));
  });
});
