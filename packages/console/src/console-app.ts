import { ProviderApiError } from '@pis/sdk';
import { backoffice, type Backoffice } from './api';
import { h, when } from './dom';
import type { PlanSide } from './plan-view';
import {
  connectionsSection,
  deliveriesSection,
  header,
  locationLabel,
  locationPicker,
  ordersSection,
  planSection,
  publishSection,
  tokenForm,
  UUID,
} from './sections';
import { forgetToken, storeToken, storedToken } from './token';
import type {
  Connection,
  Delivery,
  DeliveryStatus,
  Location,
  Order,
  Provider,
  PublishPreview,
  WorkingPlan,
} from './types';

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
  connections: Connection[] | null;
}

const emptyData = (): LocationData => ({
  working: null,
  preview: null,
  orders: [],
  deliveries: [],
  nextCursor: null,
  deliveryStatus: null,
  connections: null,
});

/** A list the backoffice reads a page at a time (locations, providers). */
interface Paged<T> {
  items: T[];
  /** The cursor of the next page; null once the last page is read. */
  next: string | null;
}

const emptyPage = <T>(): Paged<T> => ({ items: [], next: null });

/** The envelope's message, and each refused field with why (validation_failed). */
function errorText(error: unknown): string {
  if (!(error instanceof ProviderApiError)) return error instanceof Error ? error.message : String(error);
  const details = error.details.map((d) => `${d.path || 'body'}: ${d.message}`);
  return details.length > 0 ? `${error.message} (${details.join('; ')})` : error.message;
}

/** Whether a poll brought nothing new: the page is then left as it is (no redraw under the pointer). */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The console's state: token, open location, what was read of it; it reads, polls and acts. */
export class ConsoleApp {
  private api: Backoffice | null = null;
  private locationId: string | null = null;
  private data = emptyData();
  private side: PlanSide = 'working';
  private confirming = false;
  /** The provider whose revoke awaits its confirmation. */
  private confirmingRevoke: string | null = null;
  private locations = emptyPage<Location>();
  private providers = emptyPage<Provider>();
  /** Bumped whenever the token or the location changes, so answers for the old one are dropped. */
  private generation = 0;
  private ticks = 0;

  private readonly notice = h('div', { id: 'notice', role: 'status', 'aria-live': 'polite' });
  private readonly body = h('main', { id: 'body' });
  private readonly plan = h('section', { id: 'plan', 'aria-labelledby': 'plan-title' });
  private readonly publish = h('section', { id: 'publish', 'aria-labelledby': 'publish-title' });
  private readonly orders = h('section', { id: 'orders', 'aria-labelledby': 'orders-title' });
  private readonly deliveries = h('section', { id: 'deliveries', 'aria-labelledby': 'deliveries-title' });
  private readonly connections = h('section', { id: 'connections', 'aria-labelledby': 'connections-title' });
  private readonly picker = h('form', { class: 'location-form', method: 'post' });
  private readonly layout = h(
    'div',
    { class: 'location' },
    this.plan,
    h('div', { class: 'side' }, this.publish),
    this.orders,
    this.connections,
    this.deliveries,
  );

  constructor(private readonly root: HTMLElement) {
    this.picker.addEventListener('submit', (event) => event.preventDefault());
  }

  start(): void {
    const token = storedToken();
    if (token !== null) this.api = backoffice(token);
    this.root.replaceChildren(
      header(this.picker, { signOut: () => this.signOut('The token is forgotten in this tab.') }),
      this.notice,
      this.body,
    );
    const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('location');
    if (fromHash && UUID.test(fromHash)) this.locationId = fromHash;
    this.renderPicker();
    if (this.api) this.loadLists();
    if (this.api && this.locationId) this.open(this.locationId);
    else this.showBody();
  }

  /** The first pages of the locations (for the picker) and of the providers (for grants). */
  private loadLists(): void {
    this.locations = emptyPage();
    this.providers = emptyPage();
    void this.loadLocations();
    void this.loadProviders();
  }

  private async loadLocations(more = false): Promise<void> {
    const cursor = more ? this.locations.next : null;
    const page = await this.request((api) => api.locations(cursor));
    if (!page) return;
    this.locations = {
      items: more ? [...this.locations.items, ...page.locations] : page.locations,
      next: page.nextCursor,
    };
    this.renderPicker();
  }

  private async loadProviders(more = false): Promise<void> {
    const cursor = more ? this.providers.next : null;
    const page = await this.request((api) => api.providers(cursor));
    if (!page) return;
    this.providers = {
      items: more ? [...this.providers.items, ...page.providers] : page.providers,
      next: page.nextCursor,
    };
    this.renderConnections();
  }

  private renderPicker(): void {
    if (this.api === null) return void this.picker.replaceChildren();
    this.picker.replaceChildren(
      ...locationPicker(
        { locations: this.locations.items, selected: this.locationId, more: this.locations.next !== null },
        { open: (id) => this.open(id), more: () => void this.loadLocations(true) },
      ),
    );
  }

  private showBody(): void {
    if (this.api === null) return void this.body.replaceChildren(tokenForm((token) => this.useToken(token)));
    if (this.locationId === null) {
      return void this.body.replaceChildren(
        h('p', { class: 'empty' }, 'Choose a location above to open its floor plan and its providers.'),
      );
    }
    this.body.replaceChildren(this.layout);
    this.renderPlan();
    this.renderOrders();
    this.renderConnections();
    this.renderDeliveries();
  }

  private useToken(token: string): void {
    storeToken(token);
    this.api = backoffice(token);
    this.say('');
    this.renderPicker();
    this.loadLists();
    if (this.locationId) this.open(this.locationId);
    else this.showBody();
  }

  private open(locationId: string): void {
    this.locationId = locationId;
    this.generation += 1;
    this.data = emptyData();
    this.side = 'working';
    this.confirming = false;
    this.confirmingRevoke = null;
    window.history.replaceState(null, '', `#location=${locationId}`);
    this.renderPicker();
    this.say('');
    this.showBody();
    const generation = this.generation;
    void Promise.all([
      this.loadPlan(),
      this.loadOrders(),
      this.loadConnections(),
      this.loadDeliveries(),
    ]).then(() => this.poll(generation));
  }

  private signOut(message: string, kind: 'info' | 'error' = 'info'): void {
    forgetToken();
    this.api = null;
    this.generation += 1;
    this.locations = emptyPage();
    this.providers = emptyPage();
    this.renderPicker();
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
          slow && this.confirmingRevoke === null ? this.loadConnections() : null,
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
        this.say(errorText(error), 'error');
      }
      return undefined;
    }
  }

  /** Runs a call that names no location (the lists, a new provider) while the token stays the same. */
  private async request<T>(run: (api: Backoffice) => Promise<T>): Promise<T | undefined> {
    const { api } = this;
    if (api === null) return undefined;
    try {
      const value = await run(api);
      return api === this.api ? value : undefined;
    } catch (error) {
      if (api !== this.api) return undefined;
      if (error instanceof ProviderApiError && error.status === 401) {
        this.signOut('The backoffice token was refused: enter it again.', 'error');
      } else {
        this.say(errorText(error), 'error');
      }
      return undefined;
    }
  }

  private async loadConnections(): Promise<void> {
    const connections = await this.call((api, id) => api.connections(id));
    if (!connections || same(connections, this.data.connections)) return;
    this.data.connections = connections;
    this.renderConnections();
  }

  private async grant(providerId: string): Promise<void> {
    const granted = await this.call((api, id) => api.grant(id, providerId), 'item');
    if (!granted) return;
    this.say(`${granted.providerName} may now act for ${this.locationName()}.`);
    await this.loadConnections();
  }

  private async revoke(connection: Connection): Promise<void> {
    this.confirmingRevoke = null;
    const done = await this.call(async (api, id) => {
      await api.revoke(id, connection.providerId);
      return true;
    }, 'item');
    if (!done) return this.renderConnections();
    this.say(
      `${connection.providerName} is disconnected from ${this.locationName()}: its calls there are refused.`,
    );
    await this.loadConnections();
  }

  private async createProvider(name: string, brand: string): Promise<void> {
    const created = await this.request((api) => api.createProvider({ name, brand }));
    if (!created) return;
    this.say(
      `Provider ${created.name} is created: grant it to a location, then issue its key (pnpm cli provider key).`,
    );
    this.providers = emptyPage();
    await this.loadProviders();
  }

  private locationName(): string {
    const location = this.locations.items.find((l) => l.id === this.locationId);
    return location ? locationLabel(location) : 'this location';
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

  private renderConnections(): void {
    if (this.locationId === null || this.api === null) return;
    this.connections.replaceChildren(
      ...connectionsSection(
        {
          connections: this.data.connections,
          providers: this.providers.items,
          moreProviders: this.providers.next !== null,
          confirming: this.confirmingRevoke,
        },
        {
          grant: (providerId) => void this.grant(providerId),
          ask: (providerId) => {
            this.confirmingRevoke = providerId;
            this.renderConnections();
          },
          revoke: (connection) => void this.revoke(connection),
          moreProviders: () => void this.loadProviders(true),
          createProvider: (name, brand) => void this.createProvider(name, brand),
        },
      ),
    );
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
