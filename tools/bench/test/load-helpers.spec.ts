import { bodyTemplate, fullBody } from '../src/fixtures';
import { classify, loadResult } from '../src/load/outcomes';
import { parseStat } from '../src/monitor/proc';
import { atLeast, atMost } from '../src/report/targets';

describe('classify', () => {
  it.each([
    [200, '{"outcome":"applied","reservation":{}}', '200 applied'],
    [200, '{"outcome":"stale","reservation":{}}', '200 stale'],
    [200, '{"reservations":[],"nextCursor":null}', '200'],
    [409, '{"error":{"code":"table_occupied","message":"taken","occupiedBy":{}}}', '409 table_occupied'],
    [500, 'Internal Server Error', '500'],
  ])('When the answer is %p %s, then the outcome is %p', (status, body, expected) => {
    expect(classify(status, body)).toBe(expected);
  });
});

describe('loadResult', () => {
  it('When outcomes mix expected, unexpected and errors, then each is counted where it belongs', () => {
    // Arrange
    const run = {
      mode: 'closed-loop' as const,
      connections: 2,
      targetRate: null,
      seconds: 2,
      samples: [
        [100, 1],
        [200, 2],
        [300, 3],
        [400, 4],
      ] as const,
      outcomes: { '200 applied': 1, '409 table_occupied': 1, '200 stale': 1, '500 internal_error': 1 },
      transportErrors: 2,
      expected: ['200 applied', '409 table_occupied'],
    };

    // Act
    const result = loadResult(run);

    // Assert
    expect(result).toMatchObject({ requests: 4, rps: 2, errors: 3, unexpected: 1, expectedRefusals: 1 });
  });
});

describe('bodyTemplate', () => {
  it('When fields are spliced into the template, then the body equals the serialised full body', () => {
    // Arrange
    const template = bodyTemplate({ status: 'seated', tableIds: ['t-1'] });

    // Act
    const body = template('r-"1\\', '2026-01-02T00:00:00.001Z');

    // Assert
    expect(body).toBe(
      JSON.stringify(
        fullBody({
          externalId: 'r-"1\\',
          updatedAt: '2026-01-02T00:00:00.001Z',
          status: 'seated',
          tableIds: ['t-1'],
        }),
      ),
    );
  });
});

describe('parseStat', () => {
  it('When the command name holds spaces and parentheses, then the fields after it are still read', () => {
    // Arrange: pid (comm) state ppid pgrp ... utime(14) stime(15) cutime(16) cstime(17)
    const text = '42 (node (x) y) S 1 40 40 0 -1 4194560 100 0 0 0 11 22 33 44 20 0 7 0 100 1000 50';

    // Act
    const stat = parseStat(42, text);

    // Assert
    expect(stat).toEqual({ pid: 42, comm: 'node (x) y', pgrp: 40, cpuTicks: 11 + 22 + 33 + 44 });
  });
});

describe('targets', () => {
  it.each([
    { value: 0.84, goal: 0.7, pass: true, margin: '20 % above' },
    { value: 0.35, goal: 0.7, pass: false, margin: '50 % short' },
  ])(
    'When $value is measured against at least $goal, then pass is $pass ($margin)',
    ({ value, goal, pass, margin }) => {
      expect(atLeast('x', 1, value, goal, '')).toMatchObject({ pass, margin });
    },
  );

  it.each([
    { value: 20, limit: 25, pass: true, margin: '20 % headroom' },
    { value: 50, limit: 25, pass: false, margin: '100 % over' },
  ])(
    'When $value is measured against at most $limit, then pass is $pass ($margin)',
    ({ value, limit, pass, margin }) => {
      expect(atMost('x', 1, value, limit, ' ms')).toMatchObject({ pass, margin });
    },
  );
});
