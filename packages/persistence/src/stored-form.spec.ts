import { apiKeyRecordShape, Instant } from '@pis/domain';
import { rowForm } from './stored-form';

const at = (text: string) => Instant.parse(text)!;
const form = rowForm(apiKeyRecordShape, { hash: 'key_hash' });

describe('rowForm', () => {
  it('When a value becomes a row, then each field is its snake_case column (or its rename), instants with microseconds', () => {
    const row = form.toRow({
      id: 'k',
      locationId: 'l',
      hash: 'h',
      prefix: 'acme_sk_live_AbCd',
      createdAt: at('2026-11-21T19:00:00.000001Z'),
      revokedAt: null,
    });
    expect(JSON.stringify(row)).toBe(
      '{"id":"k","location_id":"l","key_hash":"h","prefix":"acme_sk_live_AbCd",' +
        '"created_at":"2026-11-21T19:00:00.000001Z","revoked_at":null}',
    );
  });

  it('When a row the database returned is read, then its timestamptz text is read and other columns are ignored', () => {
    const row = {
      id: 'k',
      location_id: 'l',
      key_hash: 'h',
      prefix: 'p',
      created_at: '2026-11-21 19:00:00.000001+00',
      revoked_at: '2026-11-22 08:00:00+00',
    };
    expect(form.fromRow({ ...row, other: 1 } as typeof row)).toEqual({
      id: 'k',
      locationId: 'l',
      hash: 'h',
      prefix: 'p',
      createdAt: at('2026-11-21T19:00:00.000001Z'),
      revokedAt: at('2026-11-22T08:00:00Z'),
    });
  });
});
