// The wire format between the extension host and its webviews. Three kinds of message:
//   request      webview → host, expects exactly one response with the same id
//   response     host → webview, either { ok: true, result } or { ok: false, error: { code, message } }
//   notification either way, no answer
// Each feature declares its messages as descriptors (see hello.ts) whose zod schemas both sides validate.
// The schemas use zod/mini: the same validation as zod, in a fraction of a webview bundle.
// No `vscode` import here: this module is shared by the host, the webviews and plain-Node tests.
import * as z from 'zod/mini';

export const REQUEST_TIMEOUT_MS = 30_000;

/** Any schema of the protocol. */
export type Schema = z.ZodMiniType;

/** Stable error codes a webview can branch on; messages are for people. */
export const ErrorCode = z.enum([
  'invalidMessage',
  'invalidParams',
  'unknownMethod',
  'notSignedIn',
  'requestFailed',
  'cancelled',
  'timeout',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

// Bounded: an unknown method's name is echoed in the error, and a page must not make the host echo megabytes.
const method = z.string().check(z.maxLength(100), z.regex(/^[a-z][A-Za-z0-9]*\/[a-z][A-Za-z0-9]*$/, 'method must look like scope/name'));

const requestId = z.int().check(z.nonnegative());

export const RequestMessage = z.strictObject({
  kind: z.literal('request'),
  id: requestId,
  method,
  params: z.unknown(),
});
export type RequestMessage = z.infer<typeof RequestMessage>;

export const ResponseError = z.strictObject({ code: ErrorCode, message: z.string() });
export type ResponseError = z.infer<typeof ResponseError>;

export const ResponseMessage = z.discriminatedUnion('ok', [
  z.strictObject({ kind: z.literal('response'), id: requestId, ok: z.literal(true), result: z.unknown() }),
  z.strictObject({ kind: z.literal('response'), id: requestId, ok: z.literal(false), error: ResponseError }),
]);
export type ResponseMessage = z.infer<typeof ResponseMessage>;

export const NotificationMessage = z.strictObject({
  kind: z.literal('notification'),
  method,
  params: z.unknown(),
});
export type NotificationMessage = z.infer<typeof NotificationMessage>;

/** What a webview may send to the host. Anything else is dropped and logged by the host. */
export const InboundMessage = z.discriminatedUnion('kind', [RequestMessage, NotificationMessage]);
export type InboundMessage = z.infer<typeof InboundMessage>;

/** What the host may send to a webview. */
export const OutboundMessage = z.union([ResponseMessage, NotificationMessage]);
export type OutboundMessage = z.infer<typeof OutboundMessage>;

export interface RequestType<P extends Schema, R extends Schema> {
  readonly kind: 'request';
  readonly method: string;
  readonly params: P;
  readonly result: R;
}

export interface NotificationType<P extends Schema> {
  readonly kind: 'notification';
  readonly method: string;
  readonly params: P;
}

export function defineRequest<P extends Schema, R extends Schema>(methodName: string, params: P, result: R): RequestType<P, R> {
  method.parse(methodName);
  return { kind: 'request', method: methodName, params, result };
}

export function defineNotification<P extends Schema>(methodName: string, params: P): NotificationType<P> {
  method.parse(methodName);
  return { kind: 'notification', method: methodName, params };
}

export type ParamsOf<T> = T extends RequestType<infer P, Schema> ? z.infer<P> : T extends NotificationType<infer P> ? z.infer<P> : never;
export type ResultOf<T> = T extends RequestType<Schema, infer R> ? z.infer<R> : never;

/** Sent by a webview that no longer wants the answer to one of its requests: the handler's signal aborts. */
export const CancelRequest = defineNotification('webview/cancel', z.strictObject({ id: requestId }));

/** Pushed to every open panel when the connection changes (signed in or out, another endpoint). */
export const ConnectionState = z.strictObject({ signedIn: z.boolean(), endpoint: z.string() });
export type ConnectionState = z.infer<typeof ConnectionState>;
export const ConnectionNotice = defineNotification('webview/connection', ConnectionState);

/**
 * The request every app sends whenever it (re)loads, once its listener is installed: answered with the app's
 * whole state, so a panel that was hidden, moved to another group or restored after a reload shows its
 * content at once. `restore` is what the host needs to reopen the same panel after a window reload; the
 * frame keeps it in the webview's state, and the host checks it again when it comes back.
 */
export type ReadyType<S extends Schema> = RequestType<z.ZodMiniObject<Record<string, never>>, z.ZodMiniObject<{ restore: z.ZodMiniUnknown; connection: typeof ConnectionState; state: S }>>;

export function defineReady<S extends Schema>(scope: string, state: S): ReadyType<S> {
  return defineRequest(`${scope}/ready`, z.strictObject({}), z.strictObject({ restore: z.unknown(), connection: ConnectionState, state }));
}

/**
 * A free-form object a webview sends (a draft's JSON, a prompt's values). A record schema silently drops an own key
 * named `__proto__` (what JSON.parse makes of one), so the handler would act on other data than was sent: such a
 * key is refused with a reason instead. Nothing of it reaches a prototype either way.
 */
export function inboundRecord<V extends Schema>(key: z.ZodMiniString<string>, value: V) {
  return z.pipe(
    z.custom<unknown>((v) => !(v !== null && typeof v === 'object' && Object.hasOwn(v, '__proto__')), 'A key named “__proto__” cannot be used.'),
    z.record(key, value),
  );
}

/** Turns a zod failure into one short line a person can read (never echoes the whole payload). */
export function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}
