import { createContextKey, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { EventEmitter } from 'node:events';
import { UnboundWhenSuppressed } from './otel-sdk';

const WHO = createContextKey('who');

describe('UnboundWhenSuppressed, the tracing context manager (decision 0233)', () => {
  const manager = new UnboundWhenSuppressed();
  beforeAll(() => manager.enable());
  afterAll(() => manager.disable());

  /** The `who` value the context active in each of the emitter's listeners held. */
  const seenBy = (emitter: EventEmitter, emitIn: Context): unknown[] => {
    const seen: unknown[] = [];
    emitter.on('ping', () => seen.push(manager.active().getValue(WHO)));
    emitter.once('ping', () => seen.push(manager.active().getValue(WHO)));
    manager.with(emitIn, () => emitter.emit('ping'));
    return seen;
  };

  it('When an emitter is bound to a context that traces, then its listeners run in that context wherever it emits', () => {
    const request = new EventEmitter();
    const traced = ROOT_CONTEXT.setValue(WHO, 'request');
    expect(manager.bind(traced, request)).toBe(request);
    expect(Object.hasOwn(request, 'on')).toBe(true);
    expect(seenBy(request, ROOT_CONTEXT.setValue(WHO, 'socket'))).toEqual(['request', 'request']);
  });

  it('When an emitter is bound to a context where tracing is suppressed, then it is left as it is: its listeners run where it emits, unwrapped', () => {
    const request = new EventEmitter();
    const ignored = suppressTracing(ROOT_CONTEXT.setValue(WHO, 'ignored request'));
    expect(manager.bind(ignored, request)).toBe(request);
    expect(Object.hasOwn(request, 'on')).toBe(false);
    const listener = () => {};
    request.on('ping', listener);
    expect(request.listeners('ping')).toEqual([listener]);
    expect(seenBy(request, ROOT_CONTEXT.setValue(WHO, 'socket'))).toEqual(['socket', 'socket']);
  });

  it('When a function is bound to a context where tracing is suppressed, then it still runs in that context (only emitters are left alone)', () => {
    const ignored = suppressTracing(ROOT_CONTEXT.setValue(WHO, 'exporter'));
    const bound = manager.bind(ignored, () => manager.active().getValue(WHO));
    expect(manager.with(ROOT_CONTEXT.setValue(WHO, 'elsewhere'), bound)).toBe('exporter');
  });
});
