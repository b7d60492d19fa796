// Host-side dispatch of webview messages, kept free of `vscode` so it runs (and is tested) in plain Node.
// Every inbound message is validated: the envelope first, then the params against the descriptor's schema.
// Handler failures become error values with a stable code; stack traces and secrets never cross over.
import type * as z from 'zod/mini';
import {
  describeIssues,
  InboundMessage,
  type ErrorCode,
  type NotificationMessage,
  type NotificationType,
  type RequestType,
  type ResponseMessage,
  type Schema,
} from './messages';

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

export class MessageRouter {
  private readonly requests = new Map<string, { type: AnyRequest; handler: (params: unknown) => Promise<unknown> }>();
  private readonly notifications = new Map<string, { type: AnyNotification; handler: (params: unknown) => void }>();

  constructor(private readonly logger: RouterLogger) {}

  onRequest<P extends Schema, R extends Schema>(type: RequestType<P, R>, handler: (params: z.infer<P>) => Promise<z.infer<R>>): this {
    if (this.requests.has(type.method)) throw new Error(`duplicate handler for ${type.method}`);
    this.requests.set(type.method, { type, handler: handler as (params: unknown) => Promise<unknown> });
    return this;
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
    try {
      const result = await route.handler(params.data);
      const checked = route.type.result.safeParse(result);
      if (!checked.success) {
        this.logger.error(`Handler for ${message.method} returned a malformed result: ${describeIssues(checked.error)}`);
        return failure(message.id, 'requestFailed', 'The extension produced an invalid answer; see the LangSmith log.');
      }
      return { kind: 'response', id: message.id, ok: true, result: checked.data };
    } catch (err) {
      if (err instanceof RequestError) return failure(message.id, err.code, err.message);
      const text = err instanceof Error ? err.message : String(err);
      this.logger.error(`Request ${message.method} failed: ${text}`);
      return failure(message.id, 'requestFailed', text);
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
