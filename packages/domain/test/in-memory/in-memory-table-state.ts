import type { TableStateQueries, TableStateRead } from '../../src';
import { detach } from './detach';
import { compareIds, lastSequence, type Reader } from './state';

/** The table-state snapshot over the committed state (always one consistent snapshot). */
export class InMemoryTableStateQueries implements TableStateQueries {
  constructor(private readonly committed: () => Reader) {}

  async read(locationId: string): Promise<TableStateRead> {
    const read = this.committed();
    return {
      asOfSequence: lastSequence(read, locationId),
      plan: detach(read.map('plans').get(locationId)?.published ?? null),
      openOrders: detach(
        [...read.map('orders').values()]
          .filter((o) => o.locationId === locationId && o.status === 'open')
          .sort((a, b) => a.openedAt.compare(b.openedAt) || compareIds(a.id, b.id)),
      ),
    };
  }
}
