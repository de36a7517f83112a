import { Writable } from 'node:stream';
import { createLogger } from '@pis/runtime';
import { Harness } from './support/harness';
import { Receiver } from './support/receiver';
import { BACKOFFICE_TOKEN } from './support/test-api';
import { P } from './support/wire';

interface Line {
  level: number;
  msg: string;
  req?: { url: string };
  res?: { statusCode: number };
  errorCode?: string;
  outcome?: string;
}

const DEBUG = 20;
const INFO = 30;
const WARN = 40;

/** An API beside `h` whose every log line at `level` and above lands in `lines`. */
async function loggedApi(h: Harness, level: string, lines: Line[]): Promise<Harness> {
  const sink = new Writable({
    write(data, _enc, done) {
      for (const text of String(data).split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  return Harness.beside(h, { BACKOFFICE_TOKEN }, createLogger(level, sink));
}

const requestLines = (lines: Line[], url: string) => lines.filter((l) => l.req?.url === url);

/**
 * What an operator watching the API's output sees: probes and scrapes do not bury the rest,
 * a refusal says what it was refused for, and a failed webhook attempt stands out.
 */
describe('log lines', () => {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    h = await Harness.start();
    receiver = await Receiver.start();
    receiver.status = (r) => (r.path.endsWith('/down') ? 503 : 204);
  });
  afterAll(async () => {
    await h?.stop();
    await receiver?.close();
  });

  it('When /healthz, /readyz and /metrics are called at the default level, then no line is written for them; at debug each is written at debug', async () => {
    const info: Line[] = [];
    const debug: Line[] = [];
    const atInfo = await loggedApi(h, 'info', info);
    const atDebug = await loggedApi(h, 'debug', debug);
    try {
      for (const api of [atInfo, atDebug]) {
        for (const path of ['/healthz', '/readyz', '/metrics']) await api.anonymous.get(path).expect(200);
        await api.anonymous.get(`${P}/openapi.json`).expect(200);
      }

      for (const path of ['/healthz', '/readyz', '/metrics']) {
        expect({ path, lines: requestLines(info, path) }).toEqual({ path, lines: [] });
        expect(requestLines(debug, path).map((l) => l.level)).toEqual([DEBUG]);
      }
      // Any other request is still a line at info, without an error code when it succeeded.
      const document = requestLines(info, `${P}/openapi.json`);
      expect(document.map((l) => [l.level, l.res?.statusCode, l.errorCode])).toEqual([
        [INFO, 200, undefined],
      ]);
    } finally {
      await atInfo.stop();
      await atDebug.stop();
    }
  });

  it('When requests are refused (no key, unknown path, a body that breaks the contract), then each line carries the error code answered', async () => {
    const lines: Line[] = [];
    const api = await loggedApi(h, 'info', lines);
    try {
      const loc = await h.location({ plan: 'none' });
      await api.anonymous.get(`${P}/floorplan`).expect(401);
      await api.anonymous.get('/no/such/path').expect(404);
      await api
        .client(loc.key)
        .put(`${P}/webhook-endpoint`)
        .send({ url: 'ftp://hooks.example.test/' })
        .expect(422);

      const refused = (url: string) =>
        requestLines(lines, url).map((l) => [l.level, l.res?.statusCode, l.errorCode]);
      expect(refused(`${P}/floorplan`)).toEqual([[INFO, 401, 'unauthorized']]);
      expect(refused('/no/such/path')).toEqual([[INFO, 404, 'not_found']]);
      expect(refused(`${P}/webhook-endpoint`)).toEqual([[INFO, 422, 'validation_failed']]);
    } finally {
      await api.stop();
    }
  });

  it('When a webhook attempt fails and another succeeds, then the failed one is logged at warn and the delivered one at info', async () => {
    const lines: Line[] = [];
    const api = await loggedApi(h, 'info', lines);
    await api.runtime.start();
    try {
      const up = await h.location({ plan: 'draft' });
      const down = await h.location({ plan: 'draft' });
      for (const [loc, path] of [
        [up, `/hooks/${up.id}`],
        [down, `/hooks/${down.id}/down`],
      ] as const) {
        await api
          .client(loc.key)
          .put(`${P}/webhook-endpoint`)
          .send({ url: `${receiver.origin}${path}` })
          .expect(200);
        await api.operator.post(loc.ops('/floorplan/publish')).expect(200);
      }
      const attempts = () => lines.filter((l) => l.msg === 'webhook attempt');
      await receiver.until(() => (attempts().length >= 2 ? true : undefined), 10_000, 'both attempts logged');

      expect(
        attempts()
          .map((l) => [l.outcome, l.level])
          .sort(),
      ).toEqual([
        ['retry', WARN],
        ['succeeded', INFO],
      ]);
    } finally {
      await api.stop();
    }
  });
});
