/**
 * Baseline: a bare Express handler that parses the same PUT body and answers the same JSON
 * as the API (a stored reservation in response form), without a database, auth or
 * validation. Run as its own process; listens on PORT.
 */
import express from 'express';
import { GUEST, PREPAYMENT } from '../seed';

const answer = {
  outcome: 'applied',
  reservation: {
    id: '01a20edf-de40-729b-ac28-46013364543d',
    externalId: 'pa-1',
    status: 'confirmed',
    partyName: 'Lovelace party',
    covers: 2,
    startsAt: '2026-11-21T19:00:00.000Z',
    endsAt: '2026-11-21T21:00:00.000Z',
    tableIds: [],
    guest: GUEST,
    internalNote: 'Prefers the quiet corner; birthday cake at 21:00',
    prepayment: PREPAYMENT,
    posOrderId: null,
    updatedAt: '2026-01-02T00:00:00.000Z',
    linkedOrderId: null,
    arrivedAt: null,
    receivedAt: '2026-11-24T18:44:42.374Z',
  },
};

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.put('/api/provider/v1/reservations/:externalId', express.json({ limit: '1mb' }), (req, res) => {
  res.json({
    ...answer,
    reservation: { ...answer.reservation, externalId: req.params.externalId, updatedAt: req.body.updatedAt },
  });
});
app.listen(Number(process.env.PORT), '127.0.0.1');
