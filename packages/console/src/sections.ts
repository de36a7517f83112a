import { changeCount } from './changes';
import { button, h, when } from './dom';
import { changesPanel, deliveriesPanel, ordersPanel } from './panels';
import { planView, type PlanSide } from './plan-view';
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

/** The page's sections, each rendered whole from the data it shows and the actions it offers. */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function header(picker: HTMLElement, actions: { signOut(): void }): HTMLElement {
  return h(
    'header',
    {},
    h('h1', {}, 'Operator console'),
    picker,
    button('Forget token', actions.signOut, { 'data-action': 'sign-out' }),
  );
}

/** A location as the pickers name it: its name, and whether it is a sandbox. */
export const locationLabel = (l: Pick<Location, 'name' | 'sandbox'>): string =>
  l.sandbox ? `${l.name} (sandbox)` : l.name;

/**
 * The location picker: the locations the backoffice lists, newest first, by name, a page at
 * a time ("More locations" reads the next). A location opened from the page's link but not
 * on a page read so far is offered as "the linked location" until its page is read.
 */
export function locationPicker(
  model: { locations: readonly Location[]; selected: string | null; more: boolean },
  actions: { open(id: string): void; more(): void },
): Node[] {
  const known = model.locations.some((l) => l.id === model.selected);
  const select = h(
    'select',
    { id: 'location', name: 'location', 'aria-label': 'Location' },
    h('option', { value: '', selected: model.selected === null }, 'Choose a location…'),
    model.selected !== null && !known
      ? h('option', { value: model.selected, selected: true }, 'The linked location')
      : null,
    ...model.locations.map((l) =>
      h('option', { value: l.id, selected: l.id === model.selected }, locationLabel(l)),
    ),
  );
  select.addEventListener('change', () => {
    if (select.value !== '') actions.open(select.value);
  });
  const label = h('label', { for: 'location' }, 'Location');
  return model.more
    ? [label, select, button('More locations', actions.more, { 'data-action': 'more-locations' })]
    : [label, select];
}

/** Asks for the token; `method=post` keeps it out of the URL should the script ever not run. */
export function tokenForm(use: (token: string) => void): HTMLElement {
  const input = h('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    required: true,
  });
  const form = h(
    'form',
    { class: 'token-form', method: 'post' },
    h('label', { for: 'token' }, 'Backoffice token'),
    input,
    h('button', { type: 'submit' }, 'Use token'),
    h(
      'p',
      { class: 'hint' },
      'The token stays in this tab (sessionStorage), is sent only in the Authorization header and is forgotten when the tab closes.',
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (token !== '') use(token);
  });
  return form;
}

export interface PlanData {
  working: WorkingPlan;
  preview: PublishPreview;
  orders: readonly Order[];
}

export function planSection(
  data: PlanData,
  view: { side: PlanSide; width: number },
  actions: { show(side: PlanSide): void; refresh(): void },
): Node[] {
  const { working, preview } = data;
  const version = working.publishedVersion;
  const status =
    working.status === 'empty'
      ? 'No floor plan imported yet.'
      : version === null
        ? 'Draft, never published.'
        : `Published version ${version} at ${when(working.publishedAt)}.`;
  const side = (which: PlanSide, label: string, enabled: boolean) =>
    button(label, () => actions.show(which), {
      'aria-pressed': String(view.side === which),
      'data-side': which,
      disabled: !enabled,
    });
  return [
    h('h2', { id: 'plan-title' }, 'Floor plan'),
    h('p', { class: 'plan-status', 'data-status': working.status, 'data-version': version ?? '' }, status),
    h(
      'div',
      { class: 'toolbar', role: 'group', 'aria-label': 'Plan shown' },
      side('working', 'Working draft', true),
      side(
        'published',
        version === null ? 'Published (none)' : `Published v${version}`,
        preview.published !== null,
      ),
      button('Refresh', actions.refresh, { 'data-action': 'refresh-plan' }),
    ),
    legend(),
    planView({ ...data, side: view.side, width: view.width }),
  ];
}

export function publishSection(
  data: PlanData,
  confirming: boolean,
  actions: { ask(asking: boolean): void; publish(): void },
): Node[] {
  const { working, preview } = data;
  const version = working.publishedVersion;
  const next = (version ?? 0) + 1;
  const pending = changeCount(preview.changes);
  const canPublish = working.status !== 'empty' && (version === null || pending > 0);
  const controls = confirming
    ? [
        h('span', {}, `Publish version ${next} to the provider?`),
        button('Confirm publish', actions.publish, { 'data-action': 'confirm-publish', class: 'primary' }),
        button('Cancel', () => actions.ask(false), { 'data-action': 'cancel-publish' }),
      ]
    : [
        button(`Publish version ${next}`, () => actions.ask(true), {
          'data-action': 'publish',
          class: 'primary',
          disabled: !canPublish,
        }),
      ];
  return [
    h(
      'h2',
      { id: 'publish-title' },
      version === null ? 'A first publish would add' : `Publishing would change (${pending})`,
    ),
    changesPanel(working, preview),
    h('div', { class: 'publish' }, ...controls),
  ];
}

export function ordersSection(orders: readonly Order[], working: WorkingPlan | null): Node[] {
  return [
    h('h2', { id: 'orders-title' }, `Occupancy (${orders.length} open)`),
    working ? ordersPanel(orders, working) : h('p', { class: 'empty' }, 'Loading…'),
  ];
}

export function deliveriesSection(
  log: { deliveries: readonly Delivery[]; status: DeliveryStatus | null; more: boolean },
  actions: {
    filter(status: DeliveryStatus | null): void;
    refresh(): void;
    more(): void;
    redeliver(d: Delivery): void;
  },
): Node[] {
  const filter = h(
    'select',
    { id: 'delivery-status', 'aria-label': 'Delivery status' },
    ...(['', 'pending', 'succeeded', 'failed'] as const).map((value) =>
      h('option', { value, selected: (log.status ?? '') === value }, value === '' ? 'every status' : value),
    ),
  );
  filter.addEventListener('change', () => actions.filter((filter.value || null) as DeliveryStatus | null));
  return [
    h('h2', { id: 'deliveries-title' }, 'Webhook deliveries'),
    h(
      'div',
      { class: 'toolbar' },
      filter,
      button('Refresh', actions.refresh, { 'data-action': 'refresh-deliveries' }),
    ),
    deliveriesPanel(log.deliveries, actions.redeliver),
    ...(log.more ? [button('Load more', actions.more, { 'data-action': 'more-deliveries' })] : []),
  ];
}

/**
 * The location's providers: its own (location keys act for it; never revoked) and every
 * provider ever granted, with grant and revoke. A revoke asks once more before it runs.
 */
export function connectionsSection(
  model: {
    connections: readonly Connection[] | null;
    providers: readonly Provider[];
    moreProviders: boolean;
    confirming: string | null;
  },
  actions: {
    grant(providerId: string): void;
    ask(providerId: string | null): void;
    revoke(connection: Connection): void;
    moreProviders(): void;
    createProvider(name: string, brand: string): void;
  },
): Node[] {
  const title = h('h2', { id: 'connections-title' }, 'Providers connected');
  if (model.connections === null) return [title, h('p', { class: 'empty' }, 'Loading…')];
  const active = model.connections.filter((c) => c.status === 'active');
  const revoked = model.connections.filter((c) => c.status === 'revoked');
  const activeIds = new Set(active.map((c) => c.providerId));
  const row = (c: Connection, ...controls: Node[]) =>
    h(
      'tr',
      { 'data-provider-id': c.providerId, 'data-status': c.status, 'data-own': String(c.own) },
      h(
        'td',
        { class: 'provider-name' },
        c.providerName,
        c.own ? h('span', { class: 'badge' }, 'own') : null,
      ),
      h('td', {}, when(c.status === 'active' ? c.grantedAt : c.revokedAt)),
      h('td', { class: 'actions' }, ...controls),
    );
  const activeRows = active.map((c) =>
    c.own
      ? row(c, h('span', { class: 'hint' }, 'acts through its location keys; cannot be revoked'))
      : model.confirming === c.providerId
        ? row(
            c,
            h('span', {}, `Disconnect ${c.providerName}?`),
            button('Confirm revoke', () => actions.revoke(c), {
              'data-action': 'confirm-revoke',
              class: 'danger',
            }),
            button('Cancel', () => actions.ask(null), { 'data-action': 'cancel-revoke' }),
          )
        : row(
            c,
            button('Revoke', () => actions.ask(c.providerId), { 'data-action': 'revoke' }),
          ),
  );
  const revokedRows = revoked.map((c) =>
    row(
      c,
      button('Grant again', () => actions.grant(c.providerId), { 'data-action': 'grant-again' }),
    ),
  );
  const table = (className: string, since: string, rows: HTMLElement[]) =>
    h(
      'table',
      { class: className },
      h(
        'thead',
        {},
        h('tr', {}, ...['Provider', since, ''].map((label) => h('th', { scope: 'col' }, label))),
      ),
      h('tbody', {}, ...rows),
    );
  const grantable = model.providers.filter((p) => !activeIds.has(p.id));
  const picker = h(
    'select',
    { id: 'grant-provider', name: 'provider', 'aria-label': 'Provider to grant' },
    ...grantable.map((p) => h('option', { value: p.id }, `${p.name} (${p.brand})`)),
  );
  const grantForm = h(
    'form',
    { class: 'grant-form', method: 'post' },
    h('label', { for: 'grant-provider' }, 'Grant'),
    picker,
    h('button', { type: 'submit', class: 'primary', disabled: grantable.length === 0 }, 'Grant'),
    model.moreProviders
      ? button('More providers', actions.moreProviders, { 'data-action': 'more-providers' })
      : null,
    grantable.length === 0 ? h('span', { class: 'hint' }, 'No other provider: create one below.') : null,
  );
  grantForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (picker.value !== '') actions.grant(picker.value);
  });
  const name = h('input', { id: 'provider-name', name: 'name', placeholder: 'name', autocomplete: 'off' });
  const brand = h('input', {
    id: 'provider-brand',
    name: 'brand',
    placeholder: 'brand (a-z, 0-9)',
    size: 14,
    autocomplete: 'off',
    spellcheck: false,
  });
  const createForm = h(
    'form',
    { class: 'provider-form', method: 'post' },
    h('label', { for: 'provider-name' }, 'New provider'),
    name,
    brand,
    h('button', { type: 'submit' }, 'Create provider'),
  );
  createForm.addEventListener('submit', (event) => {
    event.preventDefault();
    actions.createProvider(name.value.trim(), brand.value.trim());
  });
  return [
    title,
    table('connections', 'Connected since', activeRows),
    ...(revokedRows.length > 0
      ? [h('h3', {}, 'Disconnected'), table('connections revoked', 'Disconnected since', revokedRows)]
      : []),
    grantForm,
    createForm,
  ];
}

function legend(): HTMLElement {
  const item = (className: string, text: string) =>
    h('li', {}, h('span', { class: `swatch ${className}` }), text);
  return h(
    'ul',
    { class: 'legend' },
    item('free', 'free'),
    item('occupied', 'occupied'),
    item('inactive', 'inactive'),
    item('added', 'added'),
    item('changed', 'changed by the draft'),
    item('ghost', 'published position'),
  );
}
