import assert from 'node:assert/strict';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { ConnectionChanged, Ping } from '../../src/protocol/hello';
import { defineNotification, defineReady, defineRequest, InboundMessage, OutboundMessage } from '../../src/protocol/messages';
import { MessageRouter, RequestError } from '../../src/protocol/router';

function recordingLogger() {
  const lines: string[] = [];
  return { lines, warn: (m: string) => lines.push(`warn ${m}`), error: (m: string) => lines.push(`error ${m}`) };
}

const connection = { endpoint: 'http://127.0.0.1:1984', signedIn: true, source: 'secretStorage' as const };

function pingRouter(logger = recordingLogger()) {
  return new MessageRouter(logger).onRequest(Ping, async ({ message }) => ({ reply: `got ${message}`, connection, receivedAt: 'now' }));
}

describe('protocol messages', () => {
  it('accepts a well-formed request and notification', () => {
    assert.equal(InboundMessage.safeParse({ kind: 'request', id: 1, method: 'hello/ping', params: { message: 'hi' } }).success, true);
    assert.equal(InboundMessage.safeParse({ kind: 'notification', method: 'webview/cancel', params: { id: 3 } }).success, true);
  });

  it('rejects malformed envelopes', () => {
    const bad: unknown[] = [
      null,
      'hello',
      { kind: 'request', id: -1, method: 'hello/ping', params: {} },
      { kind: 'request', id: 1.5, method: 'hello/ping', params: {} },
      { kind: 'request', id: 1, method: 'no-scope', params: {} },
      { kind: 'request', id: 1, method: 'hello/ping', params: {}, extra: true },
      { kind: 'response', id: 1, ok: true, result: {} }, // webviews do not send responses
      { kind: 'shout', method: 'hello/ping' },
    ];
    for (const message of bad) assert.equal(InboundMessage.safeParse(message).success, false, JSON.stringify(message));
  });

  it('refuses method names that do not follow scope/name', () => {
    assert.throws(() => defineRequest('ping', z.object({}), z.object({})), /scope\/name/);
  });

  it('lets the host send responses and notifications only', () => {
    assert.equal(OutboundMessage.safeParse({ kind: 'response', id: 3, ok: false, error: { code: 'timeout', message: 'late' } }).success, true);
    assert.equal(OutboundMessage.safeParse({ kind: 'response', id: 3, ok: false, error: { code: 'boom', message: 'x' } }).success, false);
    assert.equal(OutboundMessage.safeParse({ kind: 'notification', method: ConnectionChanged.method, params: connection }).success, true);
  });
});

describe('message router', () => {
  it('answers a valid request with the handler result', async () => {
    const response = await pingRouter().dispatch({ kind: 'request', id: 7, method: 'hello/ping', params: { message: 'hi' } });
    assert.deepEqual(response, { kind: 'response', id: 7, ok: true, result: { reply: 'got hi', connection, receivedAt: 'now' } });
  });

  it('answers invalid params with invalidParams and the schema message, without calling the handler', async () => {
    let called = false;
    const router = new MessageRouter(recordingLogger()).onRequest(Ping, async () => {
      called = true;
      return { reply: '', connection, receivedAt: '' };
    });
    const response = await router.dispatch({ kind: 'request', id: 2, method: 'hello/ping', params: { message: '   ' } });
    assert.deepEqual(response, { kind: 'response', id: 2, ok: false, error: { code: 'invalidParams', message: 'message: Type a message first.' } });
    const tooLong = await router.dispatch({ kind: 'request', id: 3, method: 'hello/ping', params: { message: 'x'.repeat(201) } });
    assert.equal(tooLong?.ok, false);
    const extra = await router.dispatch({ kind: 'request', id: 4, method: 'hello/ping', params: { message: 'hi', apiKey: 'nope' } });
    assert.equal(extra?.ok === false && extra.error.code, 'invalidParams');
    assert.equal(called, false);
  });

  it('answers an unknown method with unknownMethod', async () => {
    const response = await pingRouter().dispatch({ kind: 'request', id: 5, method: 'hello/pong', params: {} });
    assert.deepEqual(response, { kind: 'response', id: 5, ok: false, error: { code: 'unknownMethod', message: 'Unknown request hello/pong.' } });
  });

  it('answers a malformed request that still has an id, and drops anything else with a log line', async () => {
    const logger = recordingLogger();
    const router = pingRouter(logger);
    const answered = await router.dispatch({ kind: 'request', id: 9, method: 'hello/ping' });
    assert.deepEqual(answered, { kind: 'response', id: 9, ok: false, error: { code: 'invalidMessage', message: 'The message was not understood.' } });
    assert.equal(await router.dispatch({ nonsense: true }), undefined);
    assert.equal(logger.lines.filter((l) => l.startsWith('warn Dropped a malformed webview message')).length, 2);
  });

  it('turns handler failures into error values: coded ones keep their code, others become requestFailed', async () => {
    const logger = recordingLogger();
    const coded = defineRequest('test/coded', z.strictObject({}), z.strictObject({}));
    const crashing = defineRequest('test/crash', z.strictObject({}), z.strictObject({}));
    const router = new MessageRouter(logger)
      .onRequest(coded, async () => {
        throw new RequestError('notSignedIn', 'Sign in to LangSmith first.');
      })
      .onRequest(crashing, async () => {
        throw new Error('socket hang up');
      });
    assert.deepEqual(await router.dispatch({ kind: 'request', id: 1, method: 'test/coded', params: {} }), {
      kind: 'response', id: 1, ok: false, error: { code: 'notSignedIn', message: 'Sign in to LangSmith first.' },
    });
    assert.deepEqual(await router.dispatch({ kind: 'request', id: 2, method: 'test/crash', params: {} }), {
      kind: 'response', id: 2, ok: false, error: { code: 'requestFailed', message: 'socket hang up' },
    });
    assert.ok(logger.lines.some((l) => l.includes('test/crash failed: socket hang up')));
  });

  it('does not pass a malformed handler result to the webview', async () => {
    const logger = recordingLogger();
    const router = new MessageRouter(logger).onRequest(Ping, async () => ({ reply: 42 }) as never);
    const response = await router.dispatch({ kind: 'request', id: 1, method: 'hello/ping', params: { message: 'hi' } });
    assert.equal(response?.ok === false && response.error.code, 'requestFailed');
    assert.ok(logger.lines.some((l) => l.startsWith('error Handler for hello/ping returned a malformed result')));
  });

  it('delivers valid notifications and ignores invalid ones', async () => {
    const logger = recordingLogger();
    let seen = 0;
    const Seen = defineNotification('test/seen', zm.strictObject({}));
    const router = new MessageRouter(logger).onNotification(Seen, () => seen++);
    assert.equal(await router.dispatch({ kind: 'notification', method: 'test/seen', params: {} }), undefined);
    await router.dispatch({ kind: 'notification', method: 'test/seen', params: { sneaky: 1 } });
    await router.dispatch({ kind: 'notification', method: 'webview/unknown', params: {} });
    assert.equal(seen, 1);
    assert.equal(logger.lines.length, 2);
  });

  it('aborts a handler when the webview cancels its request, and answers cancelled', async () => {
    let aborted: unknown;
    const Slow = defineRequest('test/slow', zm.strictObject({}), zm.strictObject({}));
    const router = new MessageRouter(recordingLogger()).onRequest(Slow, (_p, { signal }) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject((aborted = signal.reason)))),
    );
    const answer = router.dispatch({ kind: 'request', id: 4, method: 'test/slow', params: {} });
    await router.dispatch({ kind: 'notification', method: 'webview/cancel', params: { id: 4 } });
    assert.deepEqual(await answer, { kind: 'response', id: 4, ok: false, error: { code: 'cancelled', message: 'Cancelled.' } });
    assert.equal((aborted as Error).name, 'AbortError');
  });

  it('aborts every request in flight when disposed (the panel closed) and refuses new ones', async () => {
    const Slow = defineRequest('test/slow', zm.strictObject({}), zm.strictObject({}));
    const signals: AbortSignal[] = [];
    const router = new MessageRouter(recordingLogger()).onRequest(Slow, (_p, { signal }) => {
      signals.push(signal);
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const answers = [1, 2].map((id) => router.dispatch({ kind: 'request', id, method: 'test/slow', params: {} }));
    router.dispose();
    for (const a of await Promise.all(answers)) assert.equal(a?.ok === false && a.error.code, 'cancelled');
    assert.deepEqual(signals.map((s) => s.aborted), [true, true]);
    const late = await router.dispatch({ kind: 'request', id: 3, method: 'test/slow', params: {} });
    assert.equal(late?.ok === false && late.error.code, 'invalidMessage');
  });

  it('refuses a request id that is already in flight', async () => {
    const Slow = defineRequest('test/slow', zm.strictObject({}), zm.strictObject({}));
    let release!: () => void;
    const router = new MessageRouter(recordingLogger()).onRequest(Slow, () => new Promise((r) => (release = () => r({}))));
    const first = router.dispatch({ kind: 'request', id: 9, method: 'test/slow', params: {} });
    const second = await router.dispatch({ kind: 'request', id: 9, method: 'test/slow', params: {} });
    assert.equal(second?.ok === false && second.error.code, 'invalidMessage');
    release();
    assert.equal((await first)?.ok, true);
  });

  it('defines ready as a request answered with restore, connection and state', () => {
    const Ready = defineReady('test', zm.strictObject({ n: zm.number() }));
    assert.equal(Ready.method, 'test/ready');
    assert.equal(Ready.result.safeParse({ restore: { id: 'x' }, connection: { signedIn: true, endpoint: 'e' }, state: { n: 1 } }).success, true);
    assert.equal(Ready.result.safeParse({ restore: null, connection: { signedIn: true, endpoint: 'e' }, state: { n: 'one' } }).success, false);
  });

  it('refuses two handlers for one method', () => {
    assert.throws(() => pingRouter().onRequest(Ping, async () => ({ reply: '', connection, receivedAt: '' })), /duplicate handler for hello\/ping/);
  });
});
