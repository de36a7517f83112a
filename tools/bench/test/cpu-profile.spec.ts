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

describe('summarizeProfile', () => {
  it('When samples hit frames, then self time adds up per package and function and idle is left out', () => {
    // Arrange
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
        {
          id: 2,
          callFrame: { functionName: 'parse', url: 'file:///w/node_modules/pg/lib/result.js', lineNumber: 9 },
        },
        {
          id: 3,
          callFrame: { functionName: 'handle', url: 'file:///w/packages/http/src/app.ts', lineNumber: 0 },
        },
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
        {
          id: 1,
          callFrame: { functionName: 'wrapSafe', url: 'node:internal/modules/cjs/loader', lineNumber: 0 },
        },
        {
          id: 2,
          callFrame: { functionName: 'parse', url: 'file:///w/node_modules/pg/lib/result.js', lineNumber: 9 },
        },
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
