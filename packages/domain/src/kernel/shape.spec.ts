import { Instant } from './instant';
import { instant, list, nullable, orNull, shape, value, valueOr, type InstantText } from './shape';

const at = (text: string) => Instant.parse(text)!;
const micros: InstantText = { write: (i) => i.toIsoMicros(), read: at };
const millis: InstantText = { write: (i) => i.toIso(), read: at };

const itemShape = shape({ label: value<string>(), when: orNull(instant()) });
const thingShape = shape({
  id: value<string>(),
  note: nullable<string>(),
  flag: valueOr(false),
  at: instant(),
  tags: list(value<string>()),
  items: list(itemShape),
  child: orNull(itemShape),
});

const thing = () => ({
  id: 't-1',
  note: 'n',
  flag: true,
  at: at('2026-11-21T19:00:00.123456Z'),
  tags: ['a', 'b'],
  items: [{ label: 'x', when: at('2026-01-01T00:00:00Z') }],
  child: { label: 'c', when: null },
});

describe('shape', () => {
  it('When a value is encoded, then its plain form holds the listed fields in the listed order and nothing else', () => {
    const plain = thingShape.encode({ ...thing(), extra: 1 } as ReturnType<typeof thing>, micros);
    expect(JSON.stringify(plain)).toBe(
      '{"id":"t-1","note":"n","flag":true,"at":"2026-11-21T19:00:00.123456Z","tags":["a","b"],' +
        '"items":[{"label":"x","when":"2026-01-01T00:00:00.000000Z"}],"child":{"label":"c","when":null}}',
    );
  });

  it('When two forms encode the same value, then only their instants differ', () => {
    expect(thingShape.encode(thing(), millis).at).toBe('2026-11-21T19:00:00.123Z');
    expect(thingShape.encode(thing(), micros).at).toBe('2026-11-21T19:00:00.123456Z');
  });

  it('When a plain form is decoded, then the value it came from comes back', () => {
    expect(thingShape.decode(thingShape.encode(thing(), micros), micros)).toEqual(thing());
  });

  it('When a request leaves out what may be left out, then decoding fills null, false and empty lists', () => {
    expect(thingShape.decode({ id: 't-2', at: '2026-11-21T20:00+01:00' }, millis)).toEqual({
      id: 't-2',
      note: null,
      flag: false,
      at: at('2026-11-21T19:00:00Z'),
      tags: [],
      items: [],
      child: null,
    });
  });

  it('When a value is copied, then the copy shares no list or object with it', () => {
    const original = thing();
    const copy = thingShape.copy(original);
    expect(copy).toEqual(original);
    expect(copy.tags).not.toBe(original.tags);
    expect(copy.items[0]).not.toBe(original.items[0]);
    expect(copy.child).not.toBe(original.child);
  });

  it('When a shape is narrowed with pick or omit, then the fields keep their listed order', () => {
    expect(Object.keys(thingShape.omit('note', 'items').fields)).toEqual([
      'id',
      'flag',
      'at',
      'tags',
      'child',
    ]);
    expect(Object.keys(thingShape.pick('child', 'id').fields)).toEqual(['id', 'child']);
    expect(Object.keys(thingShape.omit('at').copy(thing()))).toEqual([
      'id',
      'note',
      'flag',
      'tags',
      'items',
      'child',
    ]);
  });

  it('When a shape is renamed, then encoding writes the other names and decoding reads only them', () => {
    const renamed = itemShape.renamed({ label: 'item_label', when: 'occurred_at' });
    const item = { label: 'x', when: at('2026-01-01T00:00:00.5Z') };
    expect(JSON.stringify(renamed.encode(item, micros))).toBe(
      '{"item_label":"x","occurred_at":"2026-01-01T00:00:00.500000Z"}',
    );
    expect(
      renamed.decode({ item_label: 'x', occurred_at: '2026-01-01T00:00:00.5Z', label: 'no' }, micros),
    ).toEqual(item);
  });
});
