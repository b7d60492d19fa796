// The wire format between the extension host and its webviews. Three kinds of message:
//   request      webview → host, expects exactly one response with the same id
//   response     host → webview, either { ok: true, result } or { ok: false, error: { code, message } }
//   notification either way, no answer
// Each feature declares its messages as descriptors (see hello.ts) whose zod schemas both sides validate.
// No `vscode` import here: this module is shared by the host, the webviews and plain-Node tests.
import { z } from 'zod';

export const REQUEST_TIMEOUT_MS = 30_000;

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

const method = z.string().regex(/^[a-z][A-Za-z0-9]*\/[a-z][A-Za-z0-9]*$/, 'method must look like scope/name');

export const RequestMessage = z.strictObject({
  kind: z.literal('request'),
  id: z.number().int().nonnegative(),
  method,
  params: z.unknown(),
});
export type RequestMessage = z.infer<typeof RequestMessage>;

export const ResponseError = z.strictObject({ code: ErrorCode, message: z.string() });
export type ResponseError = z.infer<typeof ResponseError>;

export const ResponseMessage = z.discriminatedUnion('ok', [
  z.strictObject({ kind: z.literal('response'), id: z.number().int().nonnegative(), ok: z.literal(true), result: z.unknown() }),
  z.strictObject({ kind: z.literal('response'), id: z.number().int().nonnegative(), ok: z.literal(false), error: ResponseError }),
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

export interface RequestType<P extends z.ZodType, R extends z.ZodType> {
  readonly kind: 'request';
  readonly method: string;
  readonly params: P;
  readonly result: R;
}

export interface NotificationType<P extends z.ZodType> {
  readonly kind: 'notification';
  readonly method: string;
  readonly params: P;
}

export function defineRequest<P extends z.ZodType, R extends z.ZodType>(methodName: string, params: P, result: R): RequestType<P, R> {
  method.parse(methodName);
  return { kind: 'request', method: methodName, params, result };
}

export function defineNotification<P extends z.ZodType>(methodName: string, params: P): NotificationType<P> {
  method.parse(methodName);
  return { kind: 'notification', method: methodName, params };
}

export type ParamsOf<T> = T extends RequestType<infer P, z.ZodType> ? z.infer<P> : T extends NotificationType<infer P> ? z.infer<P> : never;
export type ResultOf<T> = T extends RequestType<z.ZodType, infer R> ? z.infer<R> : never;

/** Sent by every webview once its listener is installed; the host posts nothing before it. */
export const WebviewReady = defineNotification('webview/ready', z.strictObject({}));

/** Turns a zod failure into one short line a person can read (never echoes the whole payload). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}
