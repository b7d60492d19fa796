// The evaluators of an experiment: each scores one run against its example and answers one feedback entry
// (key, score 0–1, comment). Pure functions, except the LLM judge, which asks a chat model. Plain Node.
import { validateJson } from './jsonSchema';
import { JUDGE_HEADINGS, JUDGE_SYSTEM_PREFIX, type EvaluationResult, type EvaluatorSpec } from './types';

/** What an evaluator sees of one run and its example. */
export interface EvaluationInput {
  /** The example's inputs. */
  inputs: Record<string, unknown>;
  /** The run's outputs (the runner's are `{output: text}`). */
  outputs: Record<string, unknown> | null;
  /** The example's outputs (the reference). */
  referenceOutputs: Record<string, unknown> | null;
}

/** A chat call for the judge: the messages in, the answer's text out. */
export type JudgeCall = (messages: { role: 'system' | 'user'; content: string }[], o: { model: string | null; signal?: AbortSignal }) => Promise<string>;

/** The value at a dotted path (`a.b.0`), or undefined. */
export function valueAt(root: unknown, path: string): unknown {
  let v: unknown = root;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    if (!Object.hasOwn(v as object, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** A value as text: a string as it is, anything else as JSON. */
function asText(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
}

/**
 * The text an evaluator compares: the named field (a dotted path), or when none is named the only or first string
 * field, else the whole object as JSON. Null when there is nothing (no outputs, or the named field is missing).
 */
export function pickText(obj: Record<string, unknown> | null | undefined, field: string | null): string | null {
  if (!obj) return null;
  if (field) {
    const v = valueAt(obj, field);
    return v === undefined || v === null ? null : asText(v);
  }
  const first = Object.values(obj).find((v) => typeof v === 'string');
  if (typeof first === 'string') return first;
  return Object.keys(obj).length ? JSON.stringify(obj) : null;
}

/** Words: lower-cased runs of letters and digits. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Words compared at most (longer texts are cut): keeps one comparison within a few milliseconds. */
export const SIMILARITY_MAX_WORDS = 2000;

/**
 * Similarity of two texts, 0–1: one minus the word-level edit distance (insertions, deletions and substitutions of
 * whole words, each counting 1) divided by the longer text's word count. Same words in the same order: 1; nothing
 * in common: 0; both without words: 1. Rounded to 4 decimals.
 */
export function similarity(a: string, b: string): number {
  const x = words(a).slice(0, SIMILARITY_MAX_WORDS);
  const y = words(b).slice(0, SIMILARITY_MAX_WORDS);
  const longer = Math.max(x.length, y.length);
  if (longer === 0) return 1;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  let cur = new Array<number>(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return Math.round((1 - prev[y.length]! / longer) * 10_000) / 10_000;
}

const result = (key: string, score: number | null, comment: string | null, value: string | null = null): EvaluationResult => ({ key, score, value, comment });

function cut(text: string, n = 200): string {
  return text.length > n ? `${text.slice(0, n)}…` : text;
}

/**
 * The judge's messages for one run (the layout of types.ts: a system message, then headed sections). Without a
 * reference its section is left empty.
 */
export function judgeMessages(rubric: string, input: EvaluationInput, answer: string, reference: string | null): { role: 'system' | 'user'; content: string }[] {
  const inputText = (() => {
    const values = Object.values(input.inputs);
    return values.length === 1 && typeof values[0] === 'string' ? values[0] : JSON.stringify(input.inputs, null, 2);
  })();
  const system =
    `${JUDGE_SYSTEM_PREFIX} You grade an answer against a rubric, using the reference when there is one. ` +
    'Reply with one JSON object and nothing else: {"score": <a number from 0 to 1>, "comment": "<one or two sentences on why>"}.';
  const user = [
    JUDGE_HEADINGS.rubric, rubric.trim(), '',
    JUDGE_HEADINGS.input, inputText, '',
    JUDGE_HEADINGS.reference, reference ?? '', '',
    JUDGE_HEADINGS.answer, answer,
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/**
 * The judge's `{"score", "comment"}` from its answer: the JSON object alone, inside a code fence, or the first
 * object in the text; a score given as text is read as a number. Only scores from 0 to 1 count (a 0–100 or 1–10
 * scale is not guessed at). Null when the answer holds no such object.
 */
export function parseJudgeAnswer(text: string): { score: number; comment: string | null } | null {
  const candidates: string[] = [text.trim()];
  const fence = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fence) candidates.push(fence[1]!.trim());
  // Every balanced {...} in the text, outermost first.
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        candidates.push(text.slice(start, i + 1));
        break;
      }
    }
    if (candidates.length > 20) break;
  }
  for (const c of candidates) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(c);
    } catch {
      continue;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
    const o = parsed as Record<string, unknown>;
    const raw = o['score'];
    const score = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : typeof raw === 'boolean' ? (raw ? 1 : 0) : NaN;
    if (!Number.isFinite(score) || score < 0 || score > 1) continue;
    const comment = o['comment'] ?? o['reasoning'] ?? o['explanation'];
    return { score, comment: typeof comment === 'string' ? comment : comment === undefined || comment === null ? null : JSON.stringify(comment) };
  }
  return null;
}

/**
 * Runs one evaluator on one run. Never throws for the run's content: a missing output or reference, an answer that
 * is not JSON, a judge that fails or answers nonsense is a result with no score and a comment saying why. Only the
 * caller's cancellation is thrown.
 */
export async function evaluate(spec: EvaluatorSpec, input: EvaluationInput, o: { judge?: JudgeCall; signal?: AbortSignal } = {}): Promise<EvaluationResult> {
  const key = spec.key;
  const output = pickText(input.outputs, spec.output);
  if (output === null) return result(key, null, spec.output ? `The run's outputs have no field “${spec.output}”.` : 'The run has no output.');
  const needsReference = spec.type === 'exact_match' || spec.type === 'contains' || spec.type === 'similarity';
  const reference = pickText(input.referenceOutputs, spec.reference);
  if (needsReference && reference === null) {
    return result(key, null, spec.reference ? `The example's outputs have no field “${spec.reference}”.` : 'The example has no reference output to compare with.');
  }
  switch (spec.type) {
    case 'exact_match': {
      const a = spec.ignoreCase ? output.trim().toLowerCase() : output.trim();
      const b = spec.ignoreCase ? reference!.trim().toLowerCase() : reference!.trim();
      return result(key, a === b ? 1 : 0, a === b ? 'The output equals the reference.' : 'The output differs from the reference.');
    }
    case 'contains': {
      const a = spec.ignoreCase ? output.toLowerCase() : output;
      const b = spec.ignoreCase ? reference!.trim().toLowerCase() : reference!.trim();
      const hit = a.includes(b);
      return result(key, hit ? 1 : 0, hit ? 'The output contains the reference.' : 'The output does not contain the reference.');
    }
    case 'json_valid':
    case 'json_schema': {
      let value: unknown;
      try {
        value = JSON.parse(output);
      } catch (e) {
        return result(key, 0, `The output is not JSON: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (spec.type === 'json_valid') return result(key, 1, 'The output is JSON.');
      const checked = validateJson(spec.schema, value);
      return result(key, checked.valid ? 1 : 0, checked.valid ? 'The output matches the schema.' : `The output does not match the schema: ${checked.errors.join('; ')}`);
    }
    case 'regex': {
      // A global or sticky expression keeps state between tests: a fresh one for each run.
      const hit = new RegExp(spec.pattern, spec.flags).test(output);
      return result(key, hit ? 1 : 0, hit ? `The output matches /${spec.pattern}/${spec.flags}.` : `The output does not match /${spec.pattern}/${spec.flags}.`);
    }
    case 'similarity': {
      const score = similarity(output, reference!);
      return result(key, score, `Word-level similarity to the reference: ${score}.`);
    }
    case 'llm_judge': {
      if (!o.judge) return result(key, null, 'No model to judge with.');
      let answer: string;
      try {
        answer = await o.judge(judgeMessages(spec.rubric, input, output, reference), { model: spec.model, signal: o.signal });
      } catch (e) {
        if (o.signal?.aborted) throw o.signal.reason;
        return result(key, null, `The judge failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      const parsed = parseJudgeAnswer(answer);
      if (!parsed) return result(key, null, `The judge's answer is not {"score": 0–1, "comment": "…"} JSON: ${cut(answer.trim() || '(empty)')}`);
      return result(key, parsed.score, parsed.comment);
    }
  }
}
