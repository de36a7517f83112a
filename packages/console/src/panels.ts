import { CHANGE_KINDS, changeCount, fieldChanges, tablesById, type ChangeKind } from './changes';
import { button, h, timeOf, when } from './dom';
import { formatMinor } from './money';
import type { Delivery, Order, PublishPreview, WorkingPlan } from './types';

const KIND_TITLES: Record<ChangeKind, string> = {
  added: 'Added',
  deactivated: 'Deactivated',
  reactivated: 'Reactivated',
  relabelled: 'Relabelled',
  updated: 'Moved or changed',
};

/** The changes a publish would make, kind by kind, each table by its label. */
export function changesPanel(working: WorkingPlan, preview: PublishPreview): HTMLElement {
  const now = tablesById(working);
  const before = tablesById(preview.published);
  const label = (id: string) => now.get(id)?.label ?? id;
  const lines: Record<ChangeKind, string[]> = {
    added: preview.changes.added.map(label),
    deactivated: preview.changes.deactivated.map(label),
    reactivated: preview.changes.reactivated.map(label),
    relabelled: preview.changes.relabelled.map((r) => `${r.from} → ${r.to}`),
    updated: preview.changes.updated.map((id) => {
      const [a, b] = [before.get(id), now.get(id)];
      return a && b ? `${b.label}: ${fieldChanges(a, b).join(', ')}` : label(id);
    }),
  };
  if (changeCount(preview.changes) === 0) {
    return h('p', { class: 'changes empty', 'data-changes': 0 }, 'Publishing would change no table.');
  }
  return h(
    'dl',
    { class: 'changes', 'data-changes': changeCount(preview.changes) },
    ...CHANGE_KINDS.filter((kind) => lines[kind].length > 0).flatMap((kind) => [
      h('dt', { class: `change-${kind}` }, `${KIND_TITLES[kind]} (${lines[kind].length})`),
      ...lines[kind].map((line) => h('dd', { 'data-change': kind }, line)),
    ]),
  );
}

/** Open orders with their covers and check, newest first, tables by label. */
export function ordersPanel(orders: readonly Order[], working: WorkingPlan): HTMLElement {
  if (orders.length === 0) return h('p', { class: 'empty' }, 'No open orders: every table is free.');
  const tables = tablesById(working);
  const money = (order: Order, minor: number) => formatMinor(minor, order.currency);
  return h(
    'table',
    { class: 'orders' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Tables', 'Covers', 'Reservation', 'Opened', 'Spend', 'Total', 'Balance'].map((t) =>
          h('th', {}, t),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      ...orders.map((order) =>
        h(
          'tr',
          { 'data-order-id': order.id },
          h('td', {}, order.tableIds.map((id) => tables.get(id)?.label ?? id).join(', ')),
          h('td', { class: 'number' }, String(order.covers)),
          h('td', {}, order.reservationExternalId ?? 'walk-in'),
          h('td', { title: when(order.openedAt) }, timeOf(order.openedAt)),
          h('td', { class: 'number', 'data-field': 'spend' }, money(order, order.spendMinor)),
          h('td', { class: 'number', 'data-field': 'total' }, money(order, order.check.totalMinor)),
          h('td', { class: 'number', 'data-field': 'balance' }, money(order, order.check.balanceMinor)),
        ),
      ),
    ),
  );
}

/** One page (or more) of the delivery log, each row with its last attempt and a redeliver button. */
export function deliveriesPanel(
  deliveries: readonly Delivery[],
  redeliver: (d: Delivery) => void,
): HTMLElement {
  if (deliveries.length === 0) return h('p', { class: 'empty' }, 'No deliveries.');
  const lastAttempt = (d: Delivery) => {
    const last = d.attempts[d.attempts.length - 1];
    if (!last) return 'not attempted yet';
    const outcome =
      last.responseStatus === null ? (last.error ?? 'no answer') : `HTTP ${last.responseStatus}`;
    return `${outcome}, ${last.durationMs} ms, ${when(last.attemptedAt)}`;
  };
  return h(
    'table',
    { class: 'deliveries' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Created', 'Event', 'Sequence', 'Status', 'Attempts', 'Last attempt', 'Next attempt', ''].map(
          (t) => h('th', {}, t),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      ...deliveries.map((d) =>
        h(
          'tr',
          { 'data-delivery-id': d.id, 'data-status': d.status },
          h('td', {}, when(d.createdAt)),
          h('td', {}, d.eventType),
          h('td', { class: 'number' }, String(d.locationEventSequence)),
          h('td', {}, h('span', { class: `status status-${d.status}` }, d.status)),
          h('td', { class: 'number' }, String(d.attempts.length)),
          h('td', {}, lastAttempt(d)),
          h('td', {}, when(d.nextAttemptAt)),
          h(
            'td',
            {},
            button('Redeliver', () => redeliver(d), { class: 'redeliver', 'data-delivery-id': d.id }),
          ),
        ),
      ),
    ),
  );
}
