import { chartScale, escapeXml, latencyChart, niceCeil } from '../src/report/svg';

describe('niceCeil', () => {
  it.each([
    [0.7, 1],
    [1, 1],
    [1.01, 2],
    [3, 5],
    [7, 10],
    [25, 50],
    [260.5, 500],
    [1000, 1000],
  ])('When the largest value is %p, then the axis ends at %p', (value, expected) => {
    expect(niceCeil(value)).toBe(expected);
  });
});

describe('chartScale', () => {
  it('When buckets span 2 s, then x runs to the end of the last bucket and y to a round number above the highest p99', () => {
    // Arrange
    const buckets = [
      { atMs: 0, count: 3, p50: 2, p99: 9 },
      { atMs: 1750, count: 3, p50: 4, p99: 31 },
    ];

    // Act
    const scale = chartScale(buckets, 250);

    // Assert
    expect(scale.maxX).toBe(2000);
    expect(scale.maxY).toBe(50);
    expect(scale.x(0)).toBeLessThan(scale.x(2000));
    expect(scale.y(0)).toBeGreaterThan(scale.y(50)); // SVG y grows downwards
    expect(scale.y(80)).toBe(scale.y(50)); // clipped to the plot
  });
});

describe('latencyChart', () => {
  it('When a title holds markup characters, then the SVG escapes them and draws one line each for p50 and p99', () => {
    // Arrange
    const buckets = [
      { atMs: 0, count: 1, p50: 1, p99: 2 },
      { atMs: 250, count: 1, p50: 1.5, p99: 3 },
    ];

    // Act
    const svg = latencyChart('a<b & "c"', buckets);

    // Assert
    expect(svg).toContain('a&lt;b &amp; &quot;c&quot;');
    expect(svg.match(/<path /g)).toHaveLength(2);
    expect(escapeXml('<&>')).toBe('&lt;&amp;&gt;');
  });
});
