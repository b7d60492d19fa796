// The model behind the local OpenAI-compatible chat endpoint: "local-echo". It answers from the request alone
// (no randomness, no clock), so a test can compute the exact answer and token counts with these functions.
//
//   local-echo heard 3 messages: system, user, user.
//   (Asked for gpt-4o; this local server answers with local-echo.)     ← only when another model was asked for
//   Last user message: <its text>                                      ← or "No user message."
//   temperature: 0.7                                                   ← only when temperature was given
//
// The LLM judge (the extension's experiments ask it to score an answer): a request whose FIRST message is a system
// message starting with JUDGE_SYSTEM_PREFIX is a judge request. Its last user message holds the sections, each
// starting with one of JUDGE_HEADINGS on a line of its own (`## Rubric`, `## Input`, `## Reference`, `## Answer`);
// a section is the text up to the next heading line, trimmed (a missing section is empty). The answer is the
// JSON object text `{"score":S,"comment":"local-echo judge: N of M reference words found in the answer."}`:
//   words   = the distinct lower-cased runs of letters and digits (/[\p{L}\p{N}]+/u) of a section;
//   M       = the Reference's words, N = how many of them are among the Answer's words;
//   S       = N / M rounded to 2 decimals; 1 when the Reference has no words and the Answer has some;
//             0 when the Answer has none (that rule first).
// e.g. `{"score":0.67,"comment":"local-echo judge: 2 of 3 reference words found in the answer."}`. The rubric and
// the input do not count; `stop` and `max_tokens` cut this answer as any other, and tokens are counted the same.
// The prefix and headings are those of the extension's judge (src/experiments/types.ts; chat.test.ts holds them
// equal), repeated here because the server never imports the extension's code.

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

/** How a judge request's system message starts. */
export const JUDGE_SYSTEM_PREFIX = 'You are an evaluator.';
/** The lines a judge request's sections start with. */
export const JUDGE_HEADINGS = { rubric: '## Rubric', input: '## Input', reference: '## Reference', answer: '## Answer' } as const;
export type JudgeSection = keyof typeof JUDGE_HEADINGS;

/** A judge request: the first message is a system message starting with the prefix. */
export function isJudgeRequest(messages: ChatMessage[]): boolean {
  const first = messages[0];
  return !!first && first.role === 'system' && messageText(first.content).startsWith(JUDGE_SYSTEM_PREFIX);
}

/** The sections of a judge request's user text: each heading line starts one, up to the next (trimmed). */
export function judgeSections(text: string): Record<JudgeSection, string> {
  const out: Record<JudgeSection, string[]> = { rubric: [], input: [], reference: [], answer: [] };
  const byHeading = new Map(Object.entries(JUDGE_HEADINGS).map(([k, h]) => [h, k as JudgeSection]));
  let current: JudgeSection | null = null;
  for (const line of text.split(/\r?\n/)) {
    const heading = byHeading.get(line.trim() as (typeof JUDGE_HEADINGS)[JudgeSection]);
    if (heading) current = heading;
    else if (current) out[current].push(line);
  }
  return {
    rubric: out.rubric.join('\n').trim(), input: out.input.join('\n').trim(),
    reference: out.reference.join('\n').trim(), answer: out.answer.join('\n').trim(),
  };
}

/** The distinct lower-cased runs of letters and digits of a text. */
export function judgeWords(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** The judge's verdict on an answer against a reference, by the rule above. */
export function judgeScore(reference: string, answer: string): { score: number; comment: string } {
  const ref = judgeWords(reference);
  const ans = judgeWords(answer);
  const found = [...ref].filter((w) => ans.has(w)).length;
  const score = ans.size === 0 ? 0 : ref.size === 0 ? 1 : Math.round((found / ref.size) * 100) / 100;
  return { score, comment: `local-echo judge: ${found} of ${ref.size} reference words found in the answer.` };
}

/** The judge's answer text for a judge request (the JSON object), or null for any other request. */
export function judgeAnswer(messages: ChatMessage[]): string | null {
  if (!isJudgeRequest(messages)) return null;
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const sections = judgeSections(lastUser ? messageText(lastUser.content) : '');
  const { score, comment } = judgeScore(sections.reference, sections.answer);
  return JSON.stringify({ score, comment });
}

/** The full answer, before `stop` and `max_tokens` cut it: the judge's verdict for a judge request, else the echo. */
export function localEchoAnswer(req: Pick<ChatRequest, 'model' | 'messages' | 'temperature'>): string {
  const judged = judgeAnswer(req.messages);
  if (judged !== null) return judged;
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
