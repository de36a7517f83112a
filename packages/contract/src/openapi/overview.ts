/** A link that Swagger UI's deep linking resolves to the operation's entry on the page. */
const op = (tag: string, operationId: string) => `[\`${operationId}\`](#/${tag}/${operationId})`;

/** `info.description`: what the service is, the onboarding flow and the rules every call shares (Markdown). */
export const OVERVIEW = `The integration surface between a reservation provider and the restaurant operating system
(till, floor plan, orders). This page is served by the service itself at \`/docs\`; the document
it renders is \`GET /api/provider/v1/openapi.json\`.

## Onboarding

1. **Credentials.** The operator creates the location and issues its provider API key
   (${op('backoffice', 'createLocation')}, ${op('backoffice', 'issueApiKey')}). The key is
   location-scoped: every provider call names the location by its key alone.
2. **Import.** The provider imports its floor plan once (${op('provider', 'importFloorPlan')})
   and stores the returned mapping from its own table ids to ours.
3. **Publish.** The operator publishes the plan (${op('backoffice', 'publishFloorPlan')}); the
   provider receives \`floorplan.published\` and reads the plan back
   (${op('provider', 'getFloorPlan')}).
4. **Write.** The provider creates reservations keyed by its own \`externalId\`
   (${op('provider', 'createReservation')}) and sends full-body updates
   (${op('provider', 'updateReservation')}); the latest \`updatedAt\` wins, and a blind retry
   answers \`stale\` without changing anything.
5. **Seat.** A write with status \`seated\` and \`tableIds\` opens an order on the till; a taken
   table answers \`409 table_occupied\` naming its holder in \`occupiedBy\`.
6. **Webhooks.** The provider registers one endpoint (${op('webhooks', 'putWebhookEndpoint')})
   and verifies every delivery with its secret (Standard Webhooks): \`floorplan.published\`,
   \`table.occupied\`, \`table.freed\` and \`table.spend_updated\`, described under *Webhooks*
   below. Deliveries are at least once: deduplicate on \`webhook-id\`, order on
   \`data.locationEventSequence\`. Every attempt is listed
   (${op('webhooks', 'listWebhookDeliveries')}) and can be redelivered.
7. **Reconcile.** ${op('provider', 'listReservations')} returns what the service holds for a time
   window.

## One provider, many venues; several providers, one venue

A booking system that serves many venues is registered once as a provider
(${op('backoffice', 'createProvider')}) and gets one provider key,
\`<brand>_pk_live_…\` (${op('backoffice', 'issueProviderKey')}). Each venue's operator connects it
(${op('backoffice', 'grantConnection')}, revoked with ${op('backoffice', 'revokeConnection')}); the
provider lists where it may act (${op('provider', 'listConnections')}) and names the venue of every
other call with the header \`Location-Id\`: without it 400 location_required, for a venue it is not
connected to 403 location_not_granted. Every venue also has a provider of its own, whose keys are
the location keys, so a client that uses a location key works as before.

At one venue each provider owns the reservations it writes (two providers may both hold the same
\`externalId\`), shares the floor plan, the tables and the till, and sees another provider's
reservation only as a walk-in: its reservationExternalId reads null in a 409's occupiedBy, in the
event feed and in the table-state snapshot. After a revoke its calls there are refused; a
re-grant gives its reservations back, and its feed leaves out what was committed meanwhile.

## Rules every call shares

Every error has the same envelope; clients branch on error.code only and fall back on the HTTP
status class for a code they do not know. An unknown route answers 404 and a known route with
another method 405, both not_found. Request bodies are closed: unknown properties are refused
(422), except posOrderId in a reservation.`;
