/** A link that Swagger UI's deep linking resolves to the operation's entry on the page. */
const op = (tag: string, operationId: string) => `[\`${operationId}\`](#/${tag}/${operationId})`;

/** `info.description`: what the service is, the onboarding flow and the rules every call shares (Markdown). */
export const OVERVIEW = `The integration surface between a reservation provider and the restaurant operating system
(till, floor plan, orders). This page is served by the service itself at \`/docs\`; the document
it renders is \`GET /api/provider/v1/openapi.json\`.

## Onboarding

Every step below links the operations it uses; each shows a real request and the service's
real answers (and refusals) as examples.

1. **Credentials.** The operator creates the location and issues its provider API key
   (${op('backoffice', 'createLocation')}, ${op('backoffice', 'issueApiKey')}). The key is
   location-scoped: every provider call names the location by its key alone. To try
   everything on your own first, ask for a sandbox location (\`sandbox: true\`): its key is a
   test key, \`<brand>_sk_test_...\` (step 8).
2. **Import.** The provider imports its floor plan once (${op('provider', 'importFloorPlan')})
   and stores the returned mapping from its own table ids to ours.
3. **Webhook endpoint.** The provider registers one https endpoint
   (${op('webhooks', 'putWebhookEndpoint')}) and keeps the returned \`secret\`: every delivery is
   signed with it (Standard Webhooks: \`webhook-id\`, \`webhook-timestamp\`,
   \`webhook-signature\`). ${op('webhooks', 'testWebhookEndpoint')} sends one signed
   \`webhook.test\` now and answers what the receiver did: a receiver that passes it verifies
   real deliveries. ${op('webhooks', 'rotateWebhookSecret')} issues a new secret; the old one keeps
   signing beside it for 24 h.
4. **Publish.** The operator publishes the plan (${op('backoffice', 'publishFloorPlan')}, after
   ${op('backoffice', 'previewFloorPlanPublish')}); the provider receives \`floorplan.published\`
   and reads the plan back (${op('provider', 'getFloorPlan')}).
5. **Reservations and seating.** The provider creates reservations keyed by its own
   \`externalId\` (${op('provider', 'createReservation')}) and sends full-body updates
   (${op('provider', 'updateReservation')}); the latest \`updatedAt\` wins, and a blind retry
   answers \`stale\` without changing anything. A write with status \`seated\` and \`tableIds\`
   opens an order on the till; a taken table answers \`409 table_occupied\` naming its holder in
   \`occupiedBy\`. ${op('provider', 'listReservations')} returns what the service holds for a
   time window.
6. **The till.** The restaurant's staff run the order: walk-ins
   (${op('backoffice', 'openWalkInOrder')}), items (${op('backoffice', 'addOrderItem')},
   ${op('backoffice', 'voidOrderItem')}), discounts (${op('backoffice', 'addOrderDiscount')}),
   payments (${op('backoffice', 'addOrderPayment')}), the course
   (${op('backoffice', 'setOrderServiceStatus')}), a move to other tables
   (${op('backoffice', 'moveOrder')}), and the end: paid (${op('backoffice', 'closeOrder')}) or
   cancelled (${op('backoffice', 'voidOrder')}). ${op('backoffice', 'listOrders')} lists them.
7. **Events.** What happens on the plan and the till reaches the endpoint as six event types,
   described under *Webhooks* below with a signed example each:
   - \`floorplan.published\`: a plan was published; read it again and check the stored mapping;
   - \`table.occupied\`: an order opened on a table or moved onto it;
   - \`table.freed\`: an order closed, was voided or moved off a table;
   - \`table.spend_updated\`: the check of an open order changed (items, discounts, payments);
   - \`table.status_changed\`: the till set where the table is in its meal;
   - \`order.closed\`: an order was paid and closed, with its final check.

   Deliveries are at least once: deduplicate on \`webhook-id\`, order on
   \`data.locationEventSequence\`. A delivery the receiver does not answer with a 2xx is retried;
   every attempt is listed (${op('webhooks', 'listWebhookDeliveries')}) and can be redelivered
   (${op('webhooks', 'redeliverWebhook')}).
8. **The sandbox.** With a test key the provider is its own operator: the till simulator runs
   the operator's steps 4 and 6 on the key's sandbox location
   (${op('sandbox', 'sandboxPublishFloorPlan')}, ${op('sandbox', 'sandboxOpenWalkInOrder')},
   ${op('sandbox', 'sandboxAddOrderItem')}, ${op('sandbox', 'sandboxSetOrderServiceStatus')},
   ${op('sandbox', 'sandboxCloseOrder')} and the rest of *sandbox*), so every event above can be
   caused and received before going live. A live key gets \`403 sandbox_only\` there.
9. **The event feed and recover.** Every event is also kept, in order and without gaps, for
   \`EVENT_RETENTION_DAYS\`: a receiver that was down reads what it missed
   (${op('recovery', 'listEvents')} from the last sequence it applied), or rebuilds from the
   table-state snapshot (${op('recovery', 'getTableState')}, then the feed from its
   \`asOfSequence\`), or has the missed events delivered again
   (${op('recovery', 'recoverWebhooks')}, after a sequence or an instant). Events already pruned
   answer \`410 events_expired\`: rebuild from the snapshot.

## One provider, many venues; several providers, one venue

A booking system that serves many venues holds one key for all of them, and names the venue of
each call:

1. **The provider and its key.** The operator registers the booking system once
   (${op('backoffice', 'createProvider')}; ${op('backoffice', 'listProviders')} lists them) and
   issues its provider key, shown once: \`<brand>_pk_live_…\`, or \`<brand>_pk_test_…\` for the
   sandbox locations (${op('backoffice', 'issueProviderKey')}).
2. **Connecting venues.** Each venue's operator connects it: the operator console at
   \`/console\` picks the location by name and grants the provider by name; through the API,
   ${op('backoffice', 'listLocations')} finds the location and ${op('backoffice', 'grantConnection')}
   connects it (${op('backoffice', 'listLocationConnections')} shows a venue's providers,
   ${op('backoffice', 'revokeConnection')} disconnects one).
3. **Discovering venues.** The provider lists where it may act, page by page
   (${op('provider', 'listConnections')}, no \`Location-Id\`): each venue's id, name, currency,
   sandbox flag and status. Reading it again shows new grants and revokes.
4. **Acting for a venue.** Every other call carries \`Location-Id: <location id>\`: without it
   400 location_required, for a venue it is not connected to (or no longer) 403
   location_not_granted. Per venue, the provider reads the plan and the table-state snapshot,
   follows the feed from its \`asOfSequence\` and writes reservations as in the onboarding above.
   POSTs it may retry carry an Idempotency-Key (below), so a retry after a lost answer is applied
   once.
5. **Webhooks for every venue at once.** Without \`Location-Id\`,
   ${op('webhooks', 'createWebhookEndpoint')} adds a provider-scope endpoint (at most ten): it
   receives the events of every venue the provider is connected to, each with
   \`data.locationId\`, and the connection events \`connection.granted\` and
   \`connection.revoked\` (\`data: {locationId, locationName, occurredAt}\`), which are in no
   venue's feed (${op('provider', 'listConnections')} is their fallback). Its delivery log, test,
   rotation and recover (by \`since\` only) take no \`Location-Id\` either.

Every venue also has a provider of its own, whose keys are the location keys, so a client that
uses a location key works as before.

At one venue each provider owns the reservations it writes (two providers may both hold the same
\`externalId\`), shares the floor plan, the tables and the till, and sees another provider's
reservation only as a walk-in: its reservationExternalId reads null in a 409's occupiedBy, in the
event feed and in the table-state snapshot. After a revoke its calls there are refused; a
re-grant gives its reservations back, and its feed leaves out what was committed meanwhile.

## Rules every call shares

Every error has the same envelope; clients branch on error.code only and fall back on the HTTP
status class for a code they do not know. An unknown route answers 404 and a known route with
another method 405, both not_found. Request bodies are closed: unknown properties are refused
(422), except posOrderId in a reservation. A date-time in a request is ISO 8601 with an offset,
seconds optional (\`2026-12-01T19:00+01:00\`): the format \`iso8601-date-time\` with its pattern,
not RFC 3339 \`date-time\`; responses render UTC with milliseconds. Every POST takes an optional
Idempotency-Key: the same key with the same request within 24 hours answers the first answer
again (Idempotent-Replayed: true) and changes nothing.`;
