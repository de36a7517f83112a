import { ProviderApiError } from '@pis/sdk';
import { backoffice, type Backoffice } from './api';
import { h, when } from './dom';
import type { PlanSide } from './plan-view';
import {
  deliveriesSection,
  header,
  ordersSection,
  planSection,
  publishSection,
  tokenForm,
  UUID,
} from './sections';
import { forgetToken, storeToken, storedToken } from './token';
import type { Delivery, DeliveryStatus, Order, PublishPreview, WorkingPlan } from './types';

/** Occupancy is read every POLL_MS; the plan and the delivery log every SLOW_TICKS polls. */
const POLL_MS = 2000;
const SLOW_TICKS = 3;
const DELIVERY_PAGE = 50;

interface LocationData {
  working: WorkingPlan | null;
  preview: PublishPreview | null;
  orders: Order[];
  deliveries: Delivery[];
  nextCursor: string | null;
  deliveryStatus: DeliveryStatus | null;
}

const emptyData = (): LocationData => ({
  working: null,
  preview: null,
  orders: [],
  deliveries: [],
  nextCursor: null,
  deliveryStatus: null,
});

/** Whether a poll brought nothing new: the page is then left as it is (no redraw under the pointer). */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The console's state: token, open location, what was read of it; it reads, polls and acts. */
export class ConsoleApp {
  private api: Backoffice | null = null;
  private locationId: string | null = null;
  private data = emptyData();
  private side: PlanSide = 'working';
  private confirming = false;
  /** Bumped whenever the token or the location changes, so answers for the old one are dropped. */
  private generation = 0;
  private ticks = 0;

  private readonly notice = h('div', { id: 'notice', role: 'status', 'aria-live': 'polite' });
  private readonly body = h('main', { id: 'body' });
  private readonly plan = h('section', { id: 'plan', 'aria-labelledby': 'plan-title' });
  private readonly publish = h('section', { id: 'publish', 'aria-labelledby': 'publish-title' });
  private readonly orders = h('section', { id: 'orders', 'aria-labelledby': 'orders-title' });
  private readonly deliveries = h('section', { id: 'deliveries', 'aria-labelledby': 'deliveries-title' });
  private readonly layout = h(
    'div',
    { class: 'location' },
    this.plan,
    h('div', { class: 'side' }, this.publish),
    this.orders,
    this.deliveries,
  );

  constructor(private readonly root: HTMLElement) {}

  start(): void {
    const token = storedToken();
    if (token !== null) this.api = backoffice(token);
    this.root.replaceChildren(
      header({
        open: (id) => this.open(id),
        invalid: () =>
          this.say('A location id is a UUID, as returned when the location was created.', 'error'),
        signOut: () => this.signOut('The token is forgotten in this tab.'),
      }),
      this.notice,
      this.body,
    );
    const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('location');
    if (fromHash && UUID.test(fromHash)) this.locationId = fromHash;
    if (this.api && this.locationId) this.open(this.locationId);
    else this.showBody();
  }

  private showBody(): void {
    if (this.api === null) return void this.body.replaceChildren(tokenForm((token) => this.useToken(token)));
    if (this.locationId === null) {
      return void this.body.replaceChildren(
        h('p', { class: 'empty' }, 'Enter a location id above to open its floor plan.'),
      );
    }
    this.body.replaceChildren(this.layout);
    this.renderPlan();
    this.renderOrders();
    this.renderDeliveries();
  }

  private useToken(token: string): void {
    storeToken(token);
    this.api = backoffice(token);
    this.say('');
    if (this.locationId) this.open(this.locationId);
    else this.showBody();
  }

  private open(locationId: string): void {
    this.locationId = locationId;
    this.generation += 1;
    this.data = emptyData();
    this.side = 'working';
    this.confirming = false;
    window.history.replaceState(null, '', `#location=${locationId}`);
    const input = document.getElementById('location-id');
    if (input instanceof HTMLInputElement) input.value = locationId;
    this.say('');
    this.showBody();
    const generation = this.generation;
    void Promise.all([this.loadPlan(), this.loadOrders(), this.loadDeliveries()]).then(() =>
      this.poll(generation),
    );
  }

  private signOut(message: string, kind: 'info' | 'error' = 'info'): void {
    forgetToken();
    this.api = null;
    this.generation += 1;
    this.showBody();
    this.say(message, kind);
  }

  private poll(generation: number): void {
    window.setTimeout(async () => {
      if (generation !== this.generation) return;
      if (!document.hidden) {
        this.ticks += 1;
        const slow = this.ticks % SLOW_TICKS === 0;
        await Promise.all([
          this.loadOrders(),
          slow ? this.loadPlan() : null,
          // A log paged past its first page stays as the operator left it.
          slow && this.data.nextCursor === null ? this.loadDeliveries() : null,
        ]);
      }
      this.poll(generation);
    }, POLL_MS);
  }

  /**
   * Runs a call for the open location; drops its answer if the location or token changed
   * meanwhile. A 404 means the location is unknown, except for calls naming something of it.
   */
  private async call<T>(
    run: (api: Backoffice, locationId: string) => Promise<T>,
    notFound: 'location' | 'item' = 'location',
  ): Promise<T | undefined> {
    const { api, locationId, generation } = this;
    if (api === null || locationId === null) return undefined;
    try {
      const value = await run(api, locationId);
      return generation === this.generation ? value : undefined;
    } catch (error) {
      if (generation !== this.generation) return undefined;
      if (error instanceof ProviderApiError && error.status === 401) {
        this.signOut('The backoffice token was refused: enter it again.', 'error');
      } else if (error instanceof ProviderApiError && error.status === 404 && notFound === 'location') {
        this.generation += 1;
        this.say(`There is no location ${locationId}.`, 'error');
      } else {
        this.say(error instanceof Error ? error.message : String(error), 'error');
      }
      return undefined;
    }
  }

  private async loadPlan(): Promise<void> {
    const read = () => this.call((api, id) => Promise.all([api.workingPlan(id), api.publishPreview(id)]));
    let both = await read();
    // A publish between the two reads: read again so both describe the same version.
    if (both && both[0].publishedVersion !== (both[1].published?.version ?? null)) both = await read();
    if (!both || same(both, [this.data.working, this.data.preview])) return;
    [this.data.working, this.data.preview] = both;
    this.renderPlan();
    this.renderOrders();
  }

  private async loadOrders(): Promise<void> {
    const orders = await this.call((api, id) => api.openOrders(id));
    if (!orders || same(orders, this.data.orders)) return;
    this.data.orders = orders;
    this.renderPlan();
    this.renderOrders();
  }

  private async loadDeliveries(more = false): Promise<void> {
    const cursor = more ? this.data.nextCursor : null;
    const status = this.data.deliveryStatus;
    const page = await this.call((api, id) => api.deliveries(id, { status, cursor, limit: DELIVERY_PAGE }));
    if (!page) return;
    if (!more && same(page.deliveries, this.data.deliveries) && page.nextCursor === this.data.nextCursor)
      return;
    this.data.deliveries = more ? [...this.data.deliveries, ...page.deliveries] : page.deliveries;
    this.data.nextCursor = page.nextCursor;
    this.renderDeliveries();
  }

  private async publishPlan(): Promise<void> {
    this.confirming = false;
    const published = await this.call((api, id) => api.publish(id));
    if (!published) return this.renderPlan();
    this.say(`Published version ${published.version} at ${when(published.publishedAt)}.`);
    await Promise.all([this.loadPlan(), this.loadDeliveries()]);
  }

  private async redeliver(delivery: Delivery): Promise<void> {
    const queued = await this.call((api, id) => api.redeliver(id, delivery.id), 'item');
    if (!queued) return;
    this.say(
      `Delivery ${queued.deliveryId} (${delivery.eventType} #${delivery.locationEventSequence}) is queued again.`,
    );
    await this.loadDeliveries();
  }

  private renderPlan(): void {
    const { working, preview, orders } = this.data;
    if (!working || !preview) {
      this.plan.replaceChildren(
        h('h2', { id: 'plan-title' }, 'Floor plan'),
        h('p', { class: 'empty' }, 'Loading…'),
      );
      return void this.publish.replaceChildren();
    }
    const data = { working, preview, orders };
    this.plan.replaceChildren(
      ...planSection(
        data,
        { side: this.side, width: Math.max(320, this.plan.clientWidth - 4) },
        {
          show: (side) => {
            this.side = side;
            this.renderPlan();
          },
          refresh: () => void this.loadPlan(),
        },
      ),
    );
    this.publish.replaceChildren(
      ...publishSection(data, this.confirming, {
        ask: (asking) => {
          this.confirming = asking;
          this.renderPlan();
        },
        publish: () => void this.publishPlan(),
      }),
    );
  }

  private renderOrders(): void {
    this.orders.replaceChildren(...ordersSection(this.data.orders, this.data.working));
  }

  private renderDeliveries(): void {
    this.deliveries.replaceChildren(
      ...deliveriesSection(
        {
          deliveries: this.data.deliveries,
          status: this.data.deliveryStatus,
          more: this.data.nextCursor !== null,
        },
        {
          filter: (status) => {
            this.data.deliveryStatus = status;
            void this.loadDeliveries();
          },
          refresh: () => void this.loadDeliveries(),
          more: () => void this.loadDeliveries(true),
          redeliver: (d) => void this.redeliver(d),
        },
      ),
    );
  }

  private say(text: string, kind: 'info' | 'error' = 'info'): void {
    this.notice.className = text === '' ? '' : `notice ${kind}`;
    this.notice.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    this.notice.textContent = text;
  }
}
