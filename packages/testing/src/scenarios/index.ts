export {
  expectOk,
  givenLocation,
  givenPublishedLocation,
  type PublishedLocation,
} from '@pis/domain/in-memory';
