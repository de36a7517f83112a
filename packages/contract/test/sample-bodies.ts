/** The contract's request fixtures (also the OpenAPI document's examples), for the contract's tests. */
export { fullReservationBody, importBody, minimalReservationBody } from '../src/examples/request-bodies';
