import { MSG } from './messages';

export interface LangSmithErrorInit {
  action?: string;
  status?: number;
  statusText?: string;
  detail?: string;
  cause?: unknown;
}

/** Every error the client raises. `action` names what was attempted ("read dataset"). */
export class LangSmithError extends Error {
  readonly action?: string;
  readonly status?: number;
  readonly statusText?: string;
  readonly detail?: string;

  constructor(message: string, init: LangSmithErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'LangSmithError';
    this.action = init.action;
    this.status = init.status;
    this.statusText = init.statusText;
    this.detail = init.detail;
  }
}

/** Raised before any request when arguments break a rule of the API (spec §5). */
export class LangSmithValidationError extends LangSmithError {
  constructor(message: string) {
    super(message);
    this.name = 'LangSmithValidationError';
  }
}

export class LangSmithNotFoundError extends LangSmithError {
  constructor(message: string, init: LangSmithErrorInit = {}) {
    super(message, { status: 404, ...init });
    this.name = 'LangSmithNotFoundError';
  }
}

export class LangSmithConflictError extends LangSmithError {
  constructor(message: string, init: LangSmithErrorInit = {}) {
    super(message, { status: 409, ...init });
    this.name = 'LangSmithConflictError';
  }
}

/** 401 or 403: the API key is missing, wrong, or lacks access to the workspace. */
export class LangSmithAuthError extends LangSmithError {
  constructor(message: string, init: LangSmithErrorInit = {}) {
    super(message, init);
    this.name = 'LangSmithAuthError';
  }
}

/** The request did not finish within the timeout (after any retries). */
export class LangSmithTimeoutError extends LangSmithError {
  constructor(message: string, init: LangSmithErrorInit = {}) {
    super(message, init);
    this.name = 'LangSmithTimeoutError';
  }
}

export interface PartialWriteInit<R> {
  /** The failure that stopped the write (its message, status and detail are this error's). */
  cause: unknown;
  done: number;
  total?: number;
  landedIds: string[];
  pendingIds: string[];
  retry: (o?: { signal?: AbortSignal }) => Promise<R>;
}

/**
 * A bulk write (several requests in one call, e.g. `examples.create`) that stopped part-way. Nothing is
 * duplicated; what is known:
 * - `done` of `total` items landed (`total` is undefined when the items came from an iterable not read to
 *   its end); `landedIds` are their ids.
 * - `pendingIds`: ids the client assigned to items that were sent or about to be sent but are not known to
 *   have landed (an attempt may have landed with its answer lost). Items not read yet have no id.
 * - `retry()` finishes the write: it asks which of `pendingIds` landed after all, sends the others again
 *   with the same ids (so nothing is created twice), then the items not read yet. It answers for the whole
 *   call (every id, in order); if it stops part-way again it throws another LangSmithPartialWriteError.
 *   Call it once at a time.
 * Message, `status`, `statusText` and `detail` are those of the failure that stopped the write.
 */
export class LangSmithPartialWriteError<R = unknown> extends LangSmithError {
  readonly done: number;
  readonly total?: number;
  readonly landedIds: string[];
  readonly pendingIds: string[];
  readonly retry: (o?: { signal?: AbortSignal }) => Promise<R>;

  constructor(action: string, init: PartialWriteInit<R>) {
    const c = init.cause instanceof LangSmithError ? init.cause : undefined;
    const reason = init.cause instanceof Error ? init.cause.message : String(init.cause);
    const of = init.total === undefined ? `${init.done}` : `${init.done} of ${init.total}`;
    super(`${reason}\n${of} done before the failure; retry() finishes the rest without duplicates.`, {
      action: c?.action ?? action,
      status: c?.status,
      statusText: c?.statusText,
      detail: c?.detail,
      cause: init.cause,
    });
    this.name = 'LangSmithPartialWriteError';
    this.done = init.done;
    this.total = init.total;
    this.landedIds = init.landedIds;
    this.pendingIds = init.pendingIds;
    this.retry = init.retry;
  }
}

/**
 * The server's `detail`: a string as is, an array joined by newlines (FastAPI validation
 * errors are objects, of which the `msg` is shown), anything else 'Unspecified error'.
 */
export function detailFromBody(body: unknown): string {
  if (body !== null && typeof body === 'object' && 'detail' in body) {
    const detail = (body as { detail: unknown }).detail;
    if (typeof detail === 'string') return detail;
    if (Array.isArray(detail)) {
      return detail
        .map((d) => {
          if (typeof d === 'string') return d;
          if (d && typeof d === 'object' && 'msg' in d) {
            const loc = Array.isArray((d as { loc?: unknown }).loc) ? `${(d as { loc: unknown[] }).loc.join('.')}: ` : '';
            return `${loc}${String((d as { msg: unknown }).msg)}`;
          }
          return JSON.stringify(d);
        })
        .join('\n');
    }
  }
  return MSG.unspecifiedError;
}

/** The detail of a raw error body: JSON `detail` when there is one, else the (trimmed) text itself. */
export function detailFromText(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return MSG.unspecifiedError;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed && typeof parsed === 'object') {
      if ('detail' in parsed) return detailFromBody(parsed);
      if ('message' in parsed && typeof (parsed as { message: unknown }).message === 'string') {
        return (parsed as { message: string }).message;
      }
      if ('error' in parsed) {
        const error = (parsed as { error: unknown }).error;
        if (typeof error === 'string') return error;
        // OpenAI-compatible endpoints: {"error": {"message": "...", "type": "...", "code": ...}}
        if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
          return (error as { message: string }).message;
        }
      }
    }
    return MSG.unspecifiedError;
  } catch {
    return trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed;
  }
}

/** The error for a failed HTTP answer: `Failed to {action}: {status} {statusText}` and the detail. */
export function errorForStatus(action: string, status: number, statusText: string, bodyText: string): LangSmithError {
  const detail = detailFromText(bodyText);
  const text = statusText || defaultStatusText(status);
  const message = `Failed to ${action}: ${status} ${text}\n${detail}`;
  const init = { action, status, statusText: text, detail };
  if (status === 404) return new LangSmithNotFoundError(message, init);
  if (status === 409) return new LangSmithConflictError(message, init);
  if (status === 401 || status === 403) return new LangSmithAuthError(message, init);
  return new LangSmithError(message, init);
}

function defaultStatusText(status: number): string {
  const texts: Record<number, string> = {
    400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
    408: 'Request Timeout', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type',
    422: 'Unprocessable Entity', 425: 'Too Early', 429: 'Too Many Requests', 500: 'Internal Server Error',
    502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
  };
  return texts[status] ?? '';
}

export function isNotFound(e: unknown): e is LangSmithNotFoundError {
  return e instanceof LangSmithNotFoundError;
}

export function isConflict(e: unknown): e is LangSmithConflictError {
  return e instanceof LangSmithConflictError || (e instanceof LangSmithError && e.status === 409);
}
