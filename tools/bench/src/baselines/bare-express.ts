/**
 * Baseline child process: a bare Express 5 handler answering what the API answers, without
 * authentication, validation or a database. `put`: parses the PUT body (express.json) and
 * answers the API's own response to a PUT (captured from it at seeding) with the body's
 * externalId and updatedAt; `list`: answers the API's own response to a one-day listing.
 * Serialisation happens per request, as in the API. Listens on PORT.
 */
import express from 'express';
import { readFileSync } from 'node:fs';

const mode = process.env.PIS_BENCH_MODE;
const answer = JSON.parse(readFileSync(process.env.PIS_BENCH_ANSWER_FILE!, 'utf8')) as {
  reservation?: Record<string, unknown>;
};

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
if (mode === 'put') {
  app.put('/api/provider/v1/reservations/:externalId', express.json({ limit: '1mb' }), (req, res) => {
    const body = req.body as { externalId: string; updatedAt: string };
    res.json({
      ...answer,
      reservation: { ...answer.reservation, externalId: body.externalId, updatedAt: body.updatedAt },
    });
  });
} else {
  app.get('/api/provider/v1/reservations', (_req, res) => {
    res.json(answer);
  });
}
app.listen(Number(process.env.PORT), '127.0.0.1');
