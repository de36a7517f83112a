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

## Rules every call shares

Every error has the same envelope; clients branch on error.code only and fall back on the HTTP
status class for a code they do not know. An unknown route answers 404 and a known route with
another method 405, both not_found. Request bodies are closed: unknown properties are refused
(422), except posOrderId in a reservation. Every POST takes an optional Idempotency-Key: the same
key with the same request within 24 hours answers the first answer again (Idempotent-Replayed:
true) and changes nothing.`;
