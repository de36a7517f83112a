export * from './create-in-memory-deps';
export { InMemoryStore } from './in-memory-store';
export { detach } from './detach';
