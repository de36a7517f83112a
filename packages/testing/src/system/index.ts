export {
  ConfigurableUrlPolicy,
  DEFAULT_TEST_NOW,
  fixedClock,
  ManualClock,
  RandomIds,
  RandomSecrets,
  RecordingWebhookTests,
  SequentialIds,
  Sha256KeyHasher,
} from '@pis/domain/in-memory';
