// Typed requests and notifications to the extension host. Requests carry an id and resolve when the matching
// response arrives; failures (host errors, timeouts, cancellation) come back as values, never as throws. A
// request can be cancelled with an AbortSignal: the host is told, and its handler's signal aborts. Notifications
// that arrive before anyone listens are held (the latest few per method) and handed to the first listener.
import type * as z from 'zod/mini';
import {
  CancelRequest,
  OutboundMessage,
  REQUEST_TIMEOUT_MS,
  type NotificationType,
  type RequestType,
  type ResponseError,
  type Schema,
} from '../../../src/protocol/messages';
import { vscodeApi } from './vscode';

export type Result<T> = { ok: true; value: T } | { ok: false; error: ResponseError };

type Pending = { resolve: (r: Result<unknown>) => void; timer: ReturnType<typeof setTimeout> };

const pending = new Map<number, Pending>();
const listeners = new Map<string, Set<(params: unknown) => void>>();
const notificationTypes = new Map<string, NotificationType<Schema>>();
/** Notifications nobody listened to yet, by method (raw params, checked when a listener takes them). */
const held = new Map<string, unknown[]>();
const HELD_PER_METHOD = 20;
let nextId = 1;
let started = false;

function onMessage(event: MessageEvent): void {
  const parsed = OutboundMessage.safeParse(event.data);
  if (!parsed.success) return; // not ours (VS Code posts its own messages too)
  const message = parsed.data;
  if (message.kind === 'response') {
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    clearTimeout(entry.timer);
    entry.resolve(message.ok ? { ok: true, value: message.result } : { ok: false, error: message.error });
    return;
  }
  const set = listeners.get(message.method);
  if (!set?.size) {
    const queue = held.get(message.method) ?? [];
    queue.push(message.params);
    held.set(message.method, queue.slice(-HELD_PER_METHOD));
    return;
  }
  deliver(message.method, message.params, set);
}

function deliver(method: string, raw: unknown, to: Iterable<(params: unknown) => void>): void {
  const params = notificationTypes.get(method)?.params.safeParse(raw);
  if (!params?.success) return;
  for (const listener of to) listener(params.data);
}

/** Installs the message listener. Call once, before the first request. */
export function startRpc(): void {
  if (started) return;
  started = true;
  window.addEventListener('message', onMessage);
}

export interface RequestOptions {
  timeoutMs?: number;
  /** Cancels the request here and on the host. */
  signal?: AbortSignal;
}

const cancelled: Result<never> = { ok: false, error: { code: 'cancelled', message: 'Cancelled.' } };

export function request<P extends Schema, R extends Schema>(type: RequestType<P, R>, params: z.infer<P>, options: RequestOptions = {}): Promise<Result<z.infer<R>>> {
  const checked = type.params.safeParse(params);
  if (!checked.success) {
    const message = checked.error.issues[0]?.message ?? 'Invalid input.';
    return Promise.resolve({ ok: false, error: { code: 'invalidParams', message } });
  }
  const { signal, timeoutMs = REQUEST_TIMEOUT_MS } = options;
  if (signal?.aborted) return Promise.resolve(cancelled);
  const id = nextId++;
  return new Promise((resolve) => {
    const finish = (r: Result<unknown>) => {
      pending.delete(id);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(r as Result<z.infer<R>>);
    };
    const onAbort = () => {
      if (!pending.has(id)) return;
      vscodeApi().postMessage({ kind: 'notification', method: CancelRequest.method, params: { id } });
      finish(cancelled);
    };
    const timer = setTimeout(() => finish({ ok: false, error: { code: 'timeout', message: 'The extension did not answer in time.' } }), timeoutMs);
    pending.set(id, { resolve: finish, timer });
    signal?.addEventListener('abort', onAbort, { once: true });
    vscodeApi().postMessage({ kind: 'request', id, method: type.method, params: checked.data });
  });
}

/** Tells the host something that needs no answer. */
export function notify<P extends Schema>(type: NotificationType<P>, params: z.infer<P>): void {
  const checked = type.params.safeParse(params);
  if (checked.success) vscodeApi().postMessage({ kind: 'notification', method: type.method, params: checked.data });
}

export function onNotification<P extends Schema>(type: NotificationType<P>, listener: (params: z.infer<P>) => void): () => void {
  notificationTypes.set(type.method, type as NotificationType<Schema>);
  const set = listeners.get(type.method) ?? new Set();
  set.add(listener as (params: unknown) => void);
  listeners.set(type.method, set);
  const waiting = held.get(type.method);
  if (waiting) {
    held.delete(type.method);
    for (const raw of waiting) deliver(type.method, raw, [listener as (params: unknown) => void]);
  }
  return () => set.delete(listener as (params: unknown) => void);
}
