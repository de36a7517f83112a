import { changeCount } from './changes';
import { button, h, when } from './dom';
import { changesPanel, deliveriesPanel, ordersPanel } from './panels';
import { planView, type PlanSide } from './plan-view';
import type { Delivery, DeliveryStatus, Order, PublishPreview, WorkingPlan } from './types';

/** The page's sections, each rendered whole from the data it shows and the actions it offers. */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function header(actions: { open(id: string): void; invalid(): void; signOut(): void }): HTMLElement {
  const input = h('input', {
    id: 'location-id',
    name: 'location',
    placeholder: 'location id (UUID)',
    size: 38,
    spellcheck: false,
    autocomplete: 'off',
  });
  const form = h(
    'form',
    { class: 'location-form', method: 'post' },
    h('label', { for: 'location-id' }, 'Location'),
    input,
    h('button', { type: 'submit' }, 'Open'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = input.value.trim();
    if (UUID.test(id)) actions.open(id);
    else actions.invalid();
  });
  return h(
    'header',
    {},
    h('h1', {}, 'Operator console'),
    form,
    button('Forget token', actions.signOut, { 'data-action': 'sign-out' }),
  );
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
