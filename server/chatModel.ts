// The model behind the local OpenAI-compatible chat endpoint: "local-echo". It answers from the request alone
// (no randomness, no clock), so a test can compute the exact answer and token counts with these functions.
//
//   local-echo heard 3 messages: system, user, user.
//   (Asked for gpt-4o; this local server answers with local-echo.)     ← only when another model was asked for
//   Last user message: <its text>                                      ← or "No user message."
//   temperature: 0.7                                                   ← only when temperature was given

export const LOCAL_MODEL = 'local-echo';
export const LOCAL_MODEL_FINGERPRINT = 'local-echo-1';
/** The model list's fixed `created` (2025-01-01T00:00:00Z, in unix seconds). */
export const LOCAL_MODEL_CREATED = 1_735_689_600;

export const CHAT_ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/** A content part: text parts count; any other type (image_url, input_audio, file, …) is ignored. */
export interface ChatContentPart {
  type: string;
  text?: unknown;
}

export interface ChatMessage {
  role: ChatRole;
  content: string | ChatContentPart[];
  name?: string | null;
}

/** What the answer depends on. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number | null;
  stop?: string | string[] | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
}

export type FinishReason = 'stop' | 'length';

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatCompletion {
  content: string;
  finishReason: FinishReason;
  usage: ChatUsage;
}

/** A token: a run of letters, digits and underscores, or any one other character that is not white space. */
const TOKEN = /[\p{L}\p{N}_]+|[^\p{L}\p{N}_\s]/gu;

export function countTokens(text: string): number {
  return (text.match(TOKEN) ?? []).length;
}

/** A message's text: the string, or its text parts joined with a newline (other parts are ignored). */
export function messageText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return content
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

/** Each message's tokens plus 3, plus 3 for the reply's priming. */
export function promptTokens(messages: ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + countTokens(messageText(m.content)) + 3, 0) + 3;
}

/** The full answer, before `stop` and `max_tokens` cut it. */
export function localEchoAnswer(req: Pick<ChatRequest, 'model' | 'messages' | 'temperature'>): string {
  const n = req.messages.length;
  const lines = [`local-echo heard ${n} ${n === 1 ? 'message' : 'messages'}: ${req.messages.map((m) => m.role).join(', ')}.`];
  if (req.model !== LOCAL_MODEL) lines.push(`(Asked for ${req.model}; this local server answers with ${LOCAL_MODEL}.)`);
  const lastUser = [...req.messages].reverse().find((m) => m.role === 'user');
  lines.push(lastUser ? `Last user message: ${messageText(lastUser.content)}` : 'No user message.');
  if (req.temperature !== undefined && req.temperature !== null) lines.push(`temperature: ${req.temperature}`);
  return lines.join('\n');
}

/**
 * Applies the stop sequences (the answer ends before the earliest one; finish 'stop'), then the token limit
 * (the answer ends after its last allowed token; finish 'length' when anything was cut).
 */
export function cutAnswer(text: string, limits: { stop?: string | string[] | null; maxTokens?: number | null }): { text: string; finishReason: FinishReason } {
  const stops = (typeof limits.stop === 'string' ? [limits.stop] : limits.stop ?? []).filter((s) => s !== '');
  let end = text.length;
  for (const s of stops) {
    const at = text.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  const out = text.slice(0, end);
  const max = limits.maxTokens;
  if (max !== undefined && max !== null) {
    let seen = 0;
    let lastEnd = 0;
    for (const m of out.matchAll(TOKEN)) {
      // One token too many: cut after the last allowed one (the white space before this one goes too).
      if (seen === max) return { text: out.slice(0, lastEnd), finishReason: 'length' };
      seen++;
      lastEnd = m.index + m[0].length;
    }
  }
  return { text: out, finishReason: 'stop' };
}

/** The completion local-echo gives for a request: its text, why it ended, and the token counts. */
export function completeChat(req: ChatRequest): ChatCompletion {
  const { text, finishReason } = cutAnswer(localEchoAnswer(req), { stop: req.stop, maxTokens: req.max_completion_tokens ?? req.max_tokens });
  const prompt = promptTokens(req.messages);
  const completion = countTokens(text);
  return { content: text, finishReason, usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } };
}

/**
 * The answer as streamed: one token and the white space after it per piece (white space before the first
 * token goes with it), so the pieces joined are the answer exactly. An answer of white space only is one piece.
 */
export function streamPieces(text: string): string[] {
  const starts = [...text.matchAll(TOKEN)].map((m) => m.index);
  if (!starts.length) return text ? [text] : [];
  starts[0] = 0;
  return starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
}
