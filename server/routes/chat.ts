// An OpenAI-compatible chat-completions endpoint (base URL `<server>/v1`) answered by the deterministic local
// model "local-echo" (server/chatModel.ts), so the prompt playground works offline and in tests.
//
//   GET  /v1/models            the one model
//   GET  /v1/models/{id}       it, or 404
//   POST /v1/chat/completions  an answer, whole or streamed as server-sent events (`stream: true`)
//
// Authenticated like every other route (`Authorization: Bearer <key>` or `x-api-key`). Errors on these paths
// come in OpenAI's shape `{error: {message, type, param, code}}` (server/index.ts's error handlers ask
// isOpenAiPath()). Nothing is stored.
import crypto from 'node:crypto';
import type { Server } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import type { Ctx } from '../context';
import {
  CHAT_ROLES, LOCAL_MODEL, LOCAL_MODEL_CREATED, LOCAL_MODEL_FINGERPRINT, completeChat, streamPieces, type ChatUsage,
} from '../chatModel';
import { HttpError } from '../util';

export interface ChatOptions {
  /** Pause before each streamed piece of an answer, so a person can watch it arrive (default 0). */
  delayMs?: number;
}

/** Whether a request URL belongs to the OpenAI-compatible routes (whose errors take OpenAI's shape). */
export function isOpenAiPath(url: string): boolean {
  const path = url.split('?', 1)[0];
  return path === '/v1/models' || path.startsWith('/v1/models/') || path === '/v1/chat' || path.startsWith('/v1/chat/');
}

/** An error with OpenAI's `param` and `code`. */
export class OpenAiError extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    public readonly param: string | null = null,
    public readonly code: string | null = null,
  ) {
    super(statusCode, message);
  }
}

function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function defaultCode(status: number): string | null {
  if (status === 401) return 'invalid_api_key';
  if (status === 429) return 'rate_limit_exceeded';
  return null;
}

/** OpenAI's error body for a status and message (param and code from an OpenAiError, else by status). */
export function openAiErrorBody(status: number, message: string, err?: unknown) {
  const own = err instanceof OpenAiError ? err : undefined;
  return { error: { message, type: errorType(status), param: own?.param ?? null, code: own ? own.code : defaultCode(status) } };
}

// ---- the request ----

/** A content part: a text part needs its text; other types pass unchecked (and are ignored). */
const ContentPart = z.looseObject({ type: z.string() }).superRefine((part, check) => {
  if (part.type === 'text' && typeof part.text !== 'string') check.addIssue({ code: 'invalid_type', expected: 'string', input: part.text, path: ['text'] });
});

/** Messages may carry more than the answer needs (tool_calls, tool_call_id, …): those are ignored. */
const Message = z.looseObject({
  role: z.enum(CHAT_ROLES),
  content: z.union([z.string(), z.array(ContentPart)]),
  name: z.string().nullish(),
});

/** Every parameter the endpoint accepts; any other is refused, as OpenAI does. `null` means "not given". */
const ChatBody = z.strictObject({
  model: z.string().min(1),
  messages: z.array(Message).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: z.int().min(1).nullish(),
  max_completion_tokens: z.int().min(1).nullish(),
  n: z.int().nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  seed: z.int().nullish(),
  user: z.string().nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  response_format: z.looseObject({ type: z.string() }).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  tools: z.array(z.looseObject({ type: z.string() })).nullish(),
  tool_choice: z.union([z.string(), z.looseObject({ type: z.string() })]).nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.int().min(0).max(20).nullish(),
});
type ChatBody = z.infer<typeof ChatBody>;

/** `messages[0].content` from ['messages', 0, 'content']. */
function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '');
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v = body;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

const TYPE_NAMES: Record<string, string> = { string: 'a string', number: 'a decimal', int: 'an integer', boolean: 'a boolean', array: 'an array', object: 'an object' };

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a decimal';
  if (typeof v === 'object') return 'an object';
  return TYPE_NAMES[typeof v] ?? typeof v;
}

const quoteList = (values: readonly unknown[]) => {
  const q = values.map((v) => `'${String(v)}'`);
  return q.length > 1 ? `${q.slice(0, -1).join(', ')}, and ${q[q.length - 1]}` : q.join('');
};

/** The first problem zod found, told the way OpenAI tells it, naming the field. */
function validationError(issues: z.core.$ZodIssue[], body: unknown, prefix: PropertyKey[] = []): OpenAiError {
  const unknown = issues.find((i) => i.code === 'unrecognized_keys' && i.path.length === 0 && prefix.length === 0);
  if (unknown && unknown.code === 'unrecognized_keys') {
    const s = unknown.keys.length > 1 ? 's' : '';
    return new OpenAiError(400, `Unrecognized request argument${s} supplied: ${unknown.keys.join(', ')}`);
  }
  const issue = issues[0];
  const path = [...prefix, ...issue.path];
  const field = fieldName(path);
  const value = valueAt(body, path);
  switch (issue.code) {
    case 'invalid_type':
    case 'invalid_value':
      if (value === undefined) return new OpenAiError(400, `Missing required parameter: '${field}'.`, field, 'missing_required_parameter');
      if (issue.code === 'invalid_value') {
        return new OpenAiError(400, `Invalid value for '${field}': '${String(value)}'. Supported values are: ${quoteList(issue.values)}.`, field, 'invalid_value');
      }
      return new OpenAiError(400, `Invalid type for '${field}': expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, but got ${kindOf(value)} instead.`, field, 'invalid_type');
    case 'invalid_union': {
      // A value of one of the union's types with a problem inside: report that problem.
      const inner = issue.errors.find((branch) => branch.length && branch.every((i) => i.path.length > 0));
      if (inner) return validationError(inner, body, path);
      const expected = issue.errors.flatMap((branch) => branch.filter((i) => i.code === 'invalid_type' && i.path.length === 0).map((i) => (i.code === 'invalid_type' ? TYPE_NAMES[i.expected] ?? i.expected : '')));
      return new OpenAiError(400, `Invalid type for '${field}': expected ${expected.join(' or ') || 'another type'}, but got ${kindOf(value)} instead.`, field, 'invalid_type');
    }
    case 'too_small':
    case 'too_big': {
      const below = issue.code === 'too_small';
      const limit = below ? issue.minimum : issue.maximum;
      if (issue.origin === 'array' || issue.origin === 'string') {
        const what = issue.origin === 'array' ? 'array' : 'string';
        if (below && Number(limit) === 1) {
          return new OpenAiError(400, `Invalid '${field}': empty ${what}. Expected ${what === 'array' ? 'an array' : 'a string'} with minimum length 1, but got an empty ${what} instead.`, field, `empty_${what}`);
        }
        return new OpenAiError(400, `Invalid '${field}': ${what} too ${below ? 'short' : 'long'}. Expected a length ${below ? '>=' : '<='} ${limit}.`, field, `${what}_${below ? 'below_min' : 'above_max'}_length`);
      }
      const kind = Number.isInteger(value) ? 'integer' : 'decimal';
      return new OpenAiError(
        400,
        `Invalid '${field}': ${kind} ${below ? 'below minimum' : 'above maximum'} value. Expected a value ${below ? '>=' : '<='} ${limit}, but got ${String(value)} instead.`,
        field,
        `${kind}_${below ? 'below_min' : 'above_max'}_value`,
      );
    }
    default:
      return new OpenAiError(400, `Invalid '${field}': ${issue.message}`, field, 'invalid_value');
  }
}

function parseChatBody(raw: unknown): ChatBody {
  let body = raw ?? {};
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      throw new OpenAiError(400, 'We could not parse the JSON body of your request: send a JSON object with Content-Type: application/json.');
    }
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new OpenAiError(400, `The request body must be a JSON object, not ${kindOf(body)}.`);
  const r = ChatBody.safeParse(body);
  if (!r.success) throw validationError(r.error.issues, body);
  if (r.data.n !== undefined && r.data.n !== null && r.data.n !== 1) {
    throw new OpenAiError(400, `Only n=1 is supported: ${LOCAL_MODEL} gives one choice per request (got n=${r.data.n}).`, 'n', 'unsupported_value');
  }
  return r.data;
}

// ---- the streamed answer ----

interface StreamEvent {
  data: string;
  /** Sent after the pause (the answer's pieces and its end); the rest goes at once. */
  paced: boolean;
}

/** The server-sent events of one answer, one per read, with the pause before the paced ones. */
class ChatStream extends Readable {
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private hurried = false;

  constructor(
    private readonly events: StreamEvent[],
    private readonly delayMs: number,
    private readonly live: Set<ChatStream>,
  ) {
    super();
    live.add(this);
  }

  override _read(): void {
    if (this.timer) return;
    const event = this.events[this.next];
    if (!event) {
      this.push(null);
      return;
    }
    if (event.paced && this.delayMs > 0 && !this.hurried) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pushNext();
      }, this.delayMs);
      return;
    }
    this.pushNext();
  }

  private pushNext(): void {
    this.push(this.events[this.next++].data);
  }

  /** The server is closing: the rest of the answer goes out without pauses. */
  hurry(): void {
    this.hurried = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.pushNext();
    }
  }

  // Ended, or the client went away (fastify destroys the stream then): no timer stays behind.
  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.live.delete(this);
    callback(err);
  }
}

/** Streams still open per server (a test's way to see that an abandoned stream left nothing behind). */
const liveStreams = new WeakMap<Server, Set<ChatStream>>();

export function openChatStreams(server: Server): number {
  return liveStreams.get(server)?.size ?? 0;
}

function chatEvents(id: string, created: number, body: ChatBody): StreamEvent[] {
  const answer = completeChat(body);
  const includeUsage = body.stream_options?.include_usage === true;
  const head = { id, object: 'chat.completion.chunk', created, model: LOCAL_MODEL, system_fingerprint: LOCAL_MODEL_FINGERPRINT };
  const sse = (chunk: object) => `data: ${JSON.stringify(chunk)}\n\n`;
  // With include_usage, OpenAI sends `usage: null` on every chunk but the last.
  const chunk = (delta: object, finishReason: string | null) =>
    sse({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...(includeUsage ? { usage: null } : {}) });
  const usage: ChatUsage = answer.usage;
  return [
    { data: chunk({ role: 'assistant', content: '' }, null), paced: false },
    ...streamPieces(answer.content).map((piece) => ({ data: chunk({ content: piece }, null), paced: true })),
    { data: chunk({}, answer.finishReason), paced: true },
    ...(includeUsage ? [{ data: sse({ ...head, choices: [], usage }), paced: false }] : []),
    { data: 'data: [DONE]\n\n', paced: false },
  ];
}

// ---- routes ----

const modelOut = () => ({ id: LOCAL_MODEL, object: 'model', created: LOCAL_MODEL_CREATED, owned_by: 'langsmith-workbench' });

export function registerChat(app: FastifyInstance, _ctx: Ctx, opts: ChatOptions = {}) {
  const delayMs = opts.delayMs ?? 0;
  let live = liveStreams.get(app.server);
  if (!live) liveStreams.set(app.server, (live = new Set()));
  const streams = live;

  // close() waits for answers in flight: let streams finish at once instead of at the demo's pace.
  app.addHook('preClose', (done) => {
    for (const s of streams) s.hurry();
    done();
  });

  app.get('/v1/models', async () => ({ object: 'list', data: [modelOut()] }));

  app.get('/v1/models/:model', async (req) => {
    const { model } = req.params as { model: string };
    if (model !== LOCAL_MODEL) throw new OpenAiError(404, `The model '${model}' does not exist or you do not have access to it.`, 'model', 'model_not_found');
    return modelOut();
  });

  app.post('/v1/chat/completions', async (req, reply) => {
    const body = parseChatBody(req.body);
    const id = `chatcmpl-${crypto.randomBytes(15).toString('base64url').replace(/[-_]/g, 'x')}`;
    const created = Math.floor(Date.now() / 1000);
    if (body.stream) {
      reply.header('content-type', 'text/event-stream').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
      return new ChatStream(chatEvents(id, created, body), delayMs, streams);
    }
    const answer = completeChat(body);
    return {
      id,
      object: 'chat.completion',
      created,
      model: LOCAL_MODEL,
      system_fingerprint: LOCAL_MODEL_FINGERPRINT,
      choices: [{ index: 0, message: { role: 'assistant', content: answer.content, refusal: null }, logprobs: null, finish_reason: answer.finishReason }],
      usage: answer.usage,
    };
  });
}
