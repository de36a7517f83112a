import { call, PROVIDER } from './api-client';
import { bareExpress, barePg, prepareUpsertTable } from './baselines/run-baselines';
import { databaseUrl } from './database';
import { bodyTemplate, fullBody, iso } from './fixtures';
import type { BenchOptions } from './options';
import type { ScenarioContext, ScenarioResult } from './scenario';
import { EventFeed } from './scenarios/event-feed';
import { ListWindow, LIST_FIRST_DAY_MS, LIST_LIMIT, listDays } from './scenarios/list-window';
import { onReadReplica } from './scenarios/read-replica';
import { PUT_PREFIX, PUT_RESERVATIONS, PutWrites, SEEDED_UPDATED_AT } from './scenarios/put-writes';
import { SEAT_TABLES, SeatMove } from './scenarios/seat-move';
import { TILL_TABLES, Till } from './scenarios/till';
import { webhookPipeline } from './scenarios/webhook-pipeline';
import { noisyNeighbour, provisionNeighbours } from './scenarios/noisy-neighbour';
import { webhookFanOut } from './scenarios/fan-out';
import { ConnectionsPage, ProviderAuth } from './scenarios/providers';
import { provisionLocation, type BenchLocation } from './seed';
import { startServices } from './services';

export interface RunPaths {
  database: string;
  queuePrefix: string;
  resultsDir: string;
  logDir: string;
  memoryDir: string;
  profileDir: string | null;
  cpus: number;
}

interface Fixtures {
  puts: BenchLocation | null;
  floor: BenchLocation | null;
  till: BenchLocation | null;
  list: BenchLocation | null;
  hooks: BenchLocation | null;
  neighbours: BenchLocation[] | null;
  feed: BenchLocation | null;
  putAnswer: string | null;
  listAnswer: string | null;
}

/**
 * The whole benchmark on an existing (empty) database: for each API_WORKERS pass, start the
 * API and the worker; in the first pass seed and run the baselines; then the scenarios.
 * `record` takes each result as it comes. The services are process groups that
 * `stopAllGroups` (processes.ts) stops on a Ctrl-C.
 */
export async function runBenchmark(
  options: BenchOptions,
  paths: RunPaths,
  log: (message: string) => void,
  record: (result: ScenarioResult) => void,
): Promise<void> {
  const want = (name: Parameters<typeof options.scenarios.has>[0]) => options.scenarios.has(name);
  let fixtures: Fixtures | null = null;
  let puts: PutWrites | null = null;
  let seatMove: SeatMove | null = null;
  let till: Till | null = null;
  let list: ListWindow | null = null;
  let providerAuth: ProviderAuth | null = null;
  let connectionsPage: ConnectionsPage | null = null;
  let feed: EventFeed | null = null;
  const feedEvents = feedEventsFor(options);

  const serviceOptions = (apiWorkers: number) => ({
    source: options.source,
    database: paths.database,
    queuePrefix: paths.queuePrefix,
    apiWorkers,
    workerConcurrency: options.workerConcurrency,
    cpuProfileDir: paths.profileDir,
    memoryDir: paths.memoryDir,
    logDir: paths.logDir,
  });
  const context = (services: ScenarioContext['services']): ScenarioContext => ({
    services,
    database: paths.database,
    databaseUrl: databaseUrl(paths.database),
    durationS: options.durationS,
    warmupS: options.warmupS,
    connections: options.connections,
    cpus: paths.cpus,
    memoryDir: paths.memoryDir,
    resultsDir: paths.resultsDir,
    log,
  });

  for (const [pass, apiWorkers] of options.apiWorkers.entries()) {
    log(`starting the API (API_WORKERS=${apiWorkers}) and the worker`);
    const services = await startServices(serviceOptions(apiWorkers));
    try {
      const ctx = context(services);
      if (fixtures === null) {
        fixtures = await seed(ctx, options, log);
        puts = fixtures.puts && new PutWrites(fixtures.puts);
        seatMove = fixtures.floor && new SeatMove(fixtures.floor);
        till = fixtures.till && new Till(fixtures.till);
        list = fixtures.list && new ListWindow(fixtures.list, options.listReservations);
        feed = fixtures.feed && new EventFeed(fixtures.feed, feedEvents);
        if (want('baselines')) await baselines(ctx, fixtures, options, log, record);
        if (want('provider-auth')) {
          log('provisioning a provider and seeding its reservations and a location key’s for provider-auth');
          providerAuth = await ProviderAuth.provision(
            ctx,
            await provisionLocation(ctx.services.baseUrl, 'Bench providers', 10),
          );
        }
        if (want('connections-page')) {
          log('connecting a provider to 10,000 locations for connections-page');
          connectionsPage = await ConnectionsPage.provision(ctx);
        }
      }
      if (providerAuth) {
        log(`provider-auth (w${apiWorkers})`);
        for (const result of await providerAuth.compare(ctx)) record(result);
      }
      if (connectionsPage) {
        log(`connections-page (w${apiWorkers})`);
        record(await connectionsPage.run(ctx));
      }
      if (puts && want('put-applied')) {
        log(`put-applied (w${apiWorkers})`);
        const applied = await puts.on(ctx).applied();
        record(applied);
        const half = Math.max(1, Math.round(applied.load!.rps / 2));
        log(`put-applied at half its rate, ${half}/s, open loop (w${apiWorkers})`);
        record(await puts.appliedPaced(half));
        log(`put-applied at half its rate with autocannon overallRate (w${apiWorkers})`);
        record(await puts.appliedAutocannonRate(half));
      }
      if (puts && want('put-stale')) {
        log(`put-stale (w${apiWorkers})`);
        record(await puts.on(ctx).stale());
      }
      if (seatMove && want('seat-move')) {
        log(`seat-move (w${apiWorkers})`);
        record(await seatMove.run(ctx));
      }
      if (till && want('till')) {
        log(`till (w${apiWorkers})`);
        record(await till.run(ctx));
      }
      if (list && want('list-window')) {
        log(`list-window (w${apiWorkers})`);
        const saturated = await list.saturated(ctx);
        record(saturated);
        const half = Math.max(1, Math.round(saturated.load!.rps / 2));
        log(`list-window at half its rate, ${half}/s, open loop (w${apiWorkers})`);
        record(await list.paced(ctx, half));
      }
      // The feed on the primary, beside which read-replica measures it on the replica.
      if (feed && want('read-replica') && pass === 0) {
        log(`feed (w${apiWorkers})`);
        const saturated = await feed.saturated(ctx);
        record(saturated);
        const half = Math.max(1, Math.round(saturated.load!.rps / 2));
        log(`feed at half its rate, ${half}/s, open loop (w${apiWorkers})`);
        record(await feed.paced(ctx, half));
      }
      // The API takes no part in the pipeline (events are committed in SQL): once is enough.
      if (fixtures.hooks && want('webhook-pipeline') && pass === 0) {
        for (const result of await webhookPipeline(ctx, fixtures.hooks, {
          burstEvents: options.webhookEvents,
          queuePrefix: paths.queuePrefix,
        })) {
          record(result);
        }
      }
      if (fixtures.neighbours && want('webhook-noisy-neighbour') && pass === 0) {
        record(await noisyNeighbour(ctx, fixtures.neighbours));
      }
      // Last: it crowds the service with thousands of locations.
      if (want('webhook-fan-out') && pass === 0) {
        for (const result of await webhookFanOut(ctx, Math.round(options.webhookEvents / 2))) record(result);
      }
    } finally {
      log('stopping the API and the worker');
      await services.stop();
    }
  }
  if (want('read-replica')) {
    await onReadReplica(
      serviceOptions(options.apiWorkers[0] ?? 1),
      context,
      { list, feed, puts: want('put-applied') ? puts : null },
      log,
      record,
    );
  }
}

/** Events in the feed's location: a fifth of the listed reservations (200,000 by default). */
const feedEventsFor = (options: BenchOptions) => Math.max(1_000, Math.round(options.listReservations / 5));

async function seed(
  ctx: ScenarioContext,
  options: BenchOptions,
  log: (m: string) => void,
): Promise<Fixtures> {
  const want = (name: Parameters<typeof options.scenarios.has>[0]) => options.scenarios.has(name);
  const base = ctx.services.baseUrl;
  const fixtures: Fixtures = {
    puts: null,
    floor: null,
    till: null,
    list: null,
    hooks: null,
    neighbours: null,
    feed: null,
    putAnswer: null,
    listAnswer: null,
  };
  if (want('put-applied') || want('put-stale') || want('baselines')) {
    log(`seeding ${PUT_RESERVATIONS.toLocaleString('en')} reservations for the PUT scenarios`);
    fixtures.puts = await provisionLocation(base, 'Bench writes', 20);
    await PutWrites.seed(ctx.databaseUrl, fixtures.puts);
    // The API's own answer to a full PUT, for the bare-Express baseline (older than every benchmark write).
    const body = fullBody({
      externalId: `${PUT_PREFIX}-0`,
      updatedAt: iso(Date.parse(SEEDED_UPDATED_AT) + 3_600_000),
      tableIds: fixtures.puts.tableIds.slice(0, 1),
    });
    fixtures.putAnswer = JSON.stringify(
      await call(base, fixtures.puts.key, 'PUT', `${PROVIDER}/reservations/${PUT_PREFIX}-0`, body),
    );
  }
  if (want('seat-move')) {
    log(`seeding a floor of ${SEAT_TABLES} tables and reservations for seat-move`);
    fixtures.floor = await provisionLocation(base, 'Bench floor', SEAT_TABLES);
    await SeatMove.seed(ctx.databaseUrl, fixtures.floor);
  }
  if (want('till')) {
    log(`provisioning a floor of ${TILL_TABLES} tables for till`);
    fixtures.till = await provisionLocation(base, 'Bench till', TILL_TABLES);
  }
  if (want('list-window') || want('baselines') || want('read-replica')) {
    log(
      `seeding ${options.listReservations.toLocaleString('en')} reservations for list-window (about a minute per million)`,
    );
    fixtures.list = await provisionLocation(base, 'Bench history', 10);
    await ListWindow.seed(ctx.databaseUrl, fixtures.list, options.listReservations);
    const day = `from=2000-01-02T00:00:00Z&to=2000-01-03T00:00:00Z&limit=${LIST_LIMIT}`;
    fixtures.listAnswer = JSON.stringify(
      await call(base, fixtures.list.key, 'GET', `${PROVIDER}/reservations?${day}`),
    );
  }
  if (want('read-replica')) {
    const events = feedEventsFor(options);
    log(`seeding ${events.toLocaleString('en')} events for the feed`);
    fixtures.feed = await provisionLocation(base, 'Bench feed', 10);
    await EventFeed.seed(ctx.databaseUrl, fixtures.feed, events);
  }
  if (want('webhook-pipeline')) {
    fixtures.hooks = await provisionLocation(base, 'Bench webhooks', 10);
  }
  if (want('webhook-noisy-neighbour')) {
    log('provisioning 101 locations for webhook-noisy-neighbour');
    fixtures.neighbours = await provisionNeighbours(base);
  }
  return fixtures;
}

async function baselines(
  ctx: ScenarioContext,
  fixtures: Fixtures,
  options: BenchOptions,
  log: (m: string) => void,
  record: (result: ScenarioResult) => void,
): Promise<void> {
  if (fixtures.puts && fixtures.putAnswer) {
    await prepareUpsertTable(ctx.databaseUrl, fixtures.puts.locationId, PUT_PREFIX);
    log('baseline: bare pg upsert');
    record(
      await barePg(
        ctx,
        'baseline-bare-pg-upsert',
        {
          mode: 'upsert',
          locationId: fixtures.puts.locationId,
          prefix: PUT_PREFIX,
          reservations: PUT_RESERVATIONS,
          tableIds: fixtures.puts.tableIds.slice(0, 1),
          firstWriteMs: Date.parse(SEEDED_UPDATED_AT) + 86_400_000,
        },
        `bare pg client, ${ctx.connections} connections in a child process: the PUT as one prepared INSERT ... ON CONFLICT DO UPDATE ... WHERE stored.updated_at < excluded.updated_at with the full body (guest, prepayment as jsonb), every write newer`,
      ),
    );
    log('baseline: bare express (PUT answer)');
    const template = bodyTemplate({ tableIds: fixtures.puts.tableIds.slice(0, 1) });
    let k = 0;
    record(
      await bareExpress(
        ctx,
        'baseline-bare-express-put',
        'put',
        fixtures.putAnswer,
        () => ({
          method: 'PUT',
          setupRequest: (req) => {
            const externalId = `${PUT_PREFIX}-${k % PUT_RESERVATIONS}`;
            return {
              ...req,
              path: `${PROVIDER}/reservations/${externalId}`,
              body: template(externalId, iso(k++)),
            };
          },
        }),
        { 'content-type': 'application/json', authorization: 'Bearer unused' },
        'bare Express 5 handler in a child process: parses the same PUT bodies and answers the API’s own PUT response, no auth, no validation, no database',
      ),
    );
  }
  if (fixtures.list && fixtures.listAnswer) {
    const days = listDays(options.listReservations);
    log('baseline: bare pg window listing');
    record(
      await barePg(
        ctx,
        'baseline-bare-pg-list',
        {
          mode: 'list',
          locationId: fixtures.list.locationId,
          firstDayMs: LIST_FIRST_DAY_MS,
          days,
          limit: LIST_LIMIT,
        },
        `bare pg client, ${ctx.connections} connections in a child process: the listing's own prepared statement (windowStatement) for a random day, rows parsed by pg`,
      ),
    );
    log('baseline: bare express (list answer)');
    const listing = new ListWindow(fixtures.list, options.listReservations);
    record(
      await bareExpress(
        ctx,
        'baseline-bare-express-list',
        'list',
        fixtures.listAnswer,
        () => ({ method: 'GET', setupRequest: (req) => ({ ...req, path: listing.path() }) }),
        { authorization: 'Bearer unused' },
        'bare Express 5 handler in a child process: answers the API’s own one-day listing (about 100 reservations), serialised per request, no database',
      ),
    );
  }
}
