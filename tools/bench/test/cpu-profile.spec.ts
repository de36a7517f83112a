import { categoryOf, summarizeProfile, top } from '../src/report/cpu-profile';

describe('categoryOf', () => {
  it.each([
    ['file:///w/node_modules/.pnpm/typeorm@1.1.1/node_modules/typeorm/query.js', 'f', 'typeorm'],
    ['file:///w/node_modules/.pnpm/@swc+core@1/node_modules/@swc/core/index.js', 'f', '@swc/core'],
    ['node:internal/streams/readable', 'read', 'node internals'],
    ['file:///w/packages/http/src/app.ts', 'handler', '@pis/http'],
    ['file:///w/apps/api/dist/main.js', 'main', 'apps/api'],
    ['', '(garbage collector)', 'GC'],
    ['', '(idle)', 'idle'],
    ['', '(program)', 'native (outside JS)'],
    ['', 'writev', 'native writev'],
  ])('When a frame comes from %p (%p), then it counts for %p', (url, fn, expected) => {
    expect(categoryOf(url, fn)).toBe(expected);
  });
});

/** A profile node: the frame a sample may hit. */
const frame = (id: number, functionName: string, url: string, lineNumber: number) => ({
  id,
  callFrame: { functionName, url, lineNumber },
});

describe('summarizeProfile', () => {
  it('When samples hit frames, then self time adds up per package and function and idle is left out', () => {
    // Arrange
    const profile = {
      nodes: [
        frame(1, '(idle)', '', -1),
        frame(2, 'parse', 'file:///w/node_modules/pg/lib/result.js', 9),
        frame(3, 'handle', 'file:///w/packages/http/src/app.ts', 0),
      ],
      samples: [1, 2, 2, 3],
      timeDeltas: [5000, 1000, 2000, 1000],
    };

    // Act
    const summary = summarizeProfile(profile);

    // Assert
    expect(summary.idleMs).toBe(5);
    expect(summary.busyMs).toBe(4);
    expect(summary.byCategory).toEqual({ pg: 3, '@pis/http': 1 });
    expect(top(summary.byFunction, summary.busyMs, 1)).toEqual([['parse (lib/result.js:10)', 0.75]]);
  });

  it('When a start is given, then the samples before it are left out', () => {
    // Arrange
    const profile = {
      nodes: [
        frame(1, 'wrapSafe', 'node:internal/modules/cjs/loader', 0),
        frame(2, 'parse', 'file:///w/node_modules/pg/lib/result.js', 9),
      ],
      samples: [1, 1, 2, 2],
      timeDeltas: [3000, 3000, 1000, 1000],
    };

    // Act
    const whole = summarizeProfile(profile);
    const steady = summarizeProfile(profile, 6.5);

    // Assert
    expect(whole.byCategory).toEqual({ 'node internals': 6, pg: 2 });
    expect(steady.byCategory).toEqual({ pg: 2 });
    expect(steady.busyMs).toBe(2);
  });
});
