// Typed requests and notifications to the extension host. Requests carry an id and resolve when the
// matching response arrives; failures (host errors, timeouts) come back as values, never as throws.
import type * as z from 'zod/mini';
import {
  OutboundMessage,
  REQUEST_TIMEOUT_MS,
  WebviewReady,
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
  const type = notificationTypes.get(message.method);
  const params = type?.params.safeParse(message.params);
  if (!params?.success) return;
  for (const listener of listeners.get(message.method) ?? []) listener(params.data);
}

/** Installs the listener, then tells the host it may post. Call once, before rendering. */
export function startRpc(): void {
  if (started) return;
  started = true;
  window.addEventListener('message', onMessage);
  vscodeApi().postMessage({ kind: 'notification', method: WebviewReady.method, params: {} });
}

export function request<P extends Schema, R extends Schema>(
  type: RequestType<P, R>,
  params: z.infer<P>,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Result<z.infer<R>>> {
  const checked = type.params.safeParse(params);
  if (!checked.success) {
    const message = checked.error.issues[0]?.message ?? 'Invalid input.';
    return Promise.resolve({ ok: false, error: { code: 'invalidParams', message } });
  }
  const id = nextId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      resolve({ ok: false, error: { code: 'timeout', message: 'The extension did not answer in time.' } });
    }, timeoutMs);
    pending.set(id, { resolve: resolve as (r: Result<unknown>) => void, timer });
    vscodeApi().postMessage({ kind: 'request', id, method: type.method, params: checked.data });
  });
}

export function onNotification<P extends Schema>(type: NotificationType<P>, listener: (params: z.infer<P>) => void): () => void {
  notificationTypes.set(type.method, type as NotificationType<Schema>);
  const set = listeners.get(type.method) ?? new Set();
  set.add(listener as (params: unknown) => void);
  listeners.set(type.method, set);
  return () => set.delete(listener as (params: unknown) => void);
}
