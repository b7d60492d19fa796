// The OpenAI-compatible endpoint's errors and request checking (server/routes/chat.ts serves it). Errors on
// these paths take OpenAI's shape `{error: {message, type, param, code}}` and its wording, so an OpenAI SDK
// (and a person reading its exception) sees what OpenAI would have said.
import * as z from 'zod';
import { CHAT_ROLES, LOCAL_MODEL } from '../chatModel';
import { HttpError } from '../errors';

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
export type ChatBody = z.infer<typeof ChatBody>;

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

export function parseChatBody(raw: unknown): ChatBody {
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
