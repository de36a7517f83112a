import { createContextKey, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { EventEmitter } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { UnboundWhenSuppressed } from './otel-sdk';

const WHO = createContextKey('who');

describe('UnboundWhenSuppressed, the tracing context manager (decisions 0233, 0236)', () => {
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

  it('When an incoming request and its response are bound to a context that traces, then they are left as they are; the response of an outgoing request is still bound', () => {
    const traced = ROOT_CONTEXT.setValue(WHO, 'request');
    const request = new IncomingMessage(new Socket());
    const response = new ServerResponse(request);
    const outgoingResponse = Object.assign(new IncomingMessage(new Socket()), { req: {} });

    for (const exchange of [request, response, outgoingResponse]) manager.bind(traced, exchange);

    expect([request, response, outgoingResponse].map((e) => Object.hasOwn(e, 'on'))).toEqual([
      false,
      false,
      true,
    ]);
    expect(seenBy(request, ROOT_CONTEXT.setValue(WHO, 'socket'))).toEqual(['socket', 'socket']);
    expect(seenBy(outgoingResponse, ROOT_CONTEXT.setValue(WHO, 'socket'))).toEqual(['request', 'request']);
  });
});
