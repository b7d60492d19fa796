// Host-side dispatch of webview messages, kept free of `vscode` so it runs (and is tested) in plain Node.
// Every inbound message is validated: the envelope first, then the params against the descriptor's schema.
// Handler failures become error values with a stable code; stack traces and secrets never cross over.
// Every request handler gets an AbortSignal that fires when the webview cancels the request or the router is
// disposed (the panel closed); handlers pass it on to the API client.
import type * as z from 'zod/mini';
import {
  CancelRequest,
  describeIssues,
  InboundMessage,
  type ErrorCode,
  type NotificationMessage,
  type NotificationType,
  type RequestType,
  type ResponseMessage,
  type Schema,
} from './messages';

/** The reason a handler's signal aborts with. */
export class CancelledError extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'AbortError';
  }
}

/** A failure a handler wants the webview to see with a specific code and message. */
export class RequestError extends Error {
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
    this.name = 'RequestError';
  }
}

type AnyRequest = RequestType<Schema, Schema>;
type AnyNotification = NotificationType<Schema>;

export interface RouterLogger {
  warn(message: string): void;
  error(message: string): void;
}

/** What a request handler gets besides its params. */
export interface RequestContext {
  /** Fires when the webview cancels this request or the panel closes. */
  readonly signal: AbortSignal;
}

type Handler = (params: unknown, context: RequestContext) => Promise<unknown>;

export class MessageRouter {
  private readonly requests = new Map<string, { type: AnyRequest; handler: Handler }>();
  private readonly notifications = new Map<string, { type: AnyNotification; handler: (params: unknown) => void }>();
  /** Requests in flight by id, to cancel them. */
  private readonly inFlight = new Map<number, AbortController>();
  private disposed = false;

  constructor(private readonly logger: RouterLogger) {
    this.onNotification(CancelRequest, ({ id }) => this.inFlight.get(id)?.abort(new CancelledError()));
  }

  onRequest<P extends Schema, R extends Schema>(type: RequestType<P, R>, handler: (params: z.infer<P>, context: RequestContext) => Promise<z.infer<R>>): this {
    if (this.requests.has(type.method)) throw new Error(`duplicate handler for ${type.method}`);
    this.requests.set(type.method, { type, handler: handler as Handler });
    return this;
  }

  /** Aborts every request in flight (the panel closed); later messages are refused. */
  dispose(): void {
    this.disposed = true;
    for (const controller of this.inFlight.values()) controller.abort(new CancelledError());
    this.inFlight.clear();
  }

  onNotification<P extends Schema>(type: NotificationType<P>, handler: (params: z.infer<P>) => void): this {
    if (this.notifications.has(type.method)) throw new Error(`duplicate handler for ${type.method}`);
    this.notifications.set(type.method, { type, handler: handler as (params: unknown) => void });
    return this;
  }

  /**
   * Handles one raw message from a webview. Resolves with the response to post back for requests, or
   * undefined for notifications and for messages too malformed to answer (those are logged and dropped).
   */
  async dispatch(raw: unknown): Promise<ResponseMessage | undefined> {
    const parsed = InboundMessage.safeParse(raw);
    if (!parsed.success) {
      const id = answerableId(raw);
      this.logger.warn(`Dropped a malformed webview message: ${describeIssues(parsed.error)}`);
      return id === undefined ? undefined : failure(id, 'invalidMessage', 'The message was not understood.');
    }
    const message = parsed.data;
    if (message.kind === 'notification') {
      this.dispatchNotification(message);
      return undefined;
    }
    const route = this.requests.get(message.method);
    if (!route) return failure(message.id, 'unknownMethod', `Unknown request ${message.method}.`);
    const params = route.type.params.safeParse(message.params);
    if (!params.success) return failure(message.id, 'invalidParams', describeIssues(params.error));
    if (this.disposed || this.inFlight.has(message.id)) return failure(message.id, 'invalidMessage', 'The message was not understood.');
    const controller = new AbortController();
    this.inFlight.set(message.id, controller);
    try {
      const result = await route.handler(params.data, { signal: controller.signal });
      if (controller.signal.aborted) return failure(message.id, 'cancelled', 'Cancelled.');
      const checked = route.type.result.safeParse(result);
      if (!checked.success) {
        this.logger.error(`Handler for ${message.method} returned a malformed result: ${describeIssues(checked.error)}`);
        return failure(message.id, 'requestFailed', 'The extension produced an invalid answer; see the LangSmith log.');
      }
      return { kind: 'response', id: message.id, ok: true, result: checked.data };
    } catch (err) {
      if (controller.signal.aborted) return failure(message.id, 'cancelled', 'Cancelled.');
      if (err instanceof RequestError) return failure(message.id, err.code, err.message);
      const text = err instanceof Error ? err.message : String(err);
      this.logger.error(`Request ${message.method} failed: ${text}`);
      return failure(message.id, 'requestFailed', text);
    } finally {
      this.inFlight.delete(message.id);
    }
  }

  private dispatchNotification(message: NotificationMessage): void {
    const route = this.notifications.get(message.method);
    if (!route) {
      this.logger.warn(`Ignored unknown notification ${message.method}.`);
      return;
    }
    const params = route.type.params.safeParse(message.params);
    if (!params.success) {
      this.logger.warn(`Ignored ${message.method} with invalid params: ${describeIssues(params.error)}`);
      return;
    }
    route.handler(params.data);
  }
}

function failure(id: number, code: ErrorCode, message: string): ResponseMessage {
  return { kind: 'response', id, ok: false, error: { code, message } };
}

function answerableId(raw: unknown): number | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { kind, id } = raw as { kind?: unknown; id?: unknown };
  return kind === 'request' && typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : undefined;
}
