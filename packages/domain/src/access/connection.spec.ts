import { withinSpans } from './connection';

describe('withinSpans', () => {
  const spans = [
    { after: 2, through: 5 },
    { after: 8, through: null },
  ];

  it.each([
    [1, false],
    [2, false],
    [3, true],
    [5, true],
    [6, false],
    [8, false],
    [9, true],
    [1_000_000, true],
  ])(
    'When the event of sequence %i is asked about, then it was committed while connected: %s',
    (sequence, inside) => {
      expect(withinSpans(spans, sequence)).toBe(inside);
    },
  );

  it('When a provider was never connected, or a grant and a revoke had no event between them, then no event is its', () => {
    expect(withinSpans([], 1)).toBe(false);
    expect(withinSpans([{ after: 4, through: 4 }], 4)).toBe(false);
    expect(withinSpans([{ after: 4, through: 4 }], 5)).toBe(false);
  });
});
