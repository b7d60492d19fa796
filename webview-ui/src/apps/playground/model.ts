// What the playground page works out on its own: the model settings as typed (checked here, so a run never
// leaves with a number the host would refuse), the runs it remembers, and small formatting helpers.
import type { ModelSettings, TraceStatus } from '../../../../src/protocol/playground';

/** The model fields as the user typed them; null means "not changed here": the host's value shows through. */
export interface ModelEdits {
  model: string | null;
  temperature: string | null;
  maxTokens: string | null;
}

export const NO_MODEL_EDITS: ModelEdits = { model: null, temperature: null, maxTokens: null };

/** The three fields as shown: the user's text where they typed, else the host's settings. */
export function modelTexts(edits: ModelEdits, host: ModelSettings): { model: string; temperature: string; maxTokens: string } {
  return {
    model: edits.model ?? host.model,
    temperature: edits.temperature ?? (host.temperature === null ? '' : String(host.temperature)),
    maxTokens: edits.maxTokens ?? (host.maxTokens === null ? '' : String(host.maxTokens)),
  };
}

type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export const TEMPERATURE_ERROR = 'Temperature is a number from 0 to 2 (leave it empty for the model’s default).';
export const MAX_TOKENS_ERROR = 'Max tokens is a whole number from 1 to 1,000,000 (leave it empty for the model’s default).';
export const MODEL_ERROR = 'The model name is at most 200 characters.';

export function checkTemperature(text: string): Checked<number | null> {
  const t = text.trim();
  if (!t) return { ok: true, value: null };
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(t)) return { ok: false, error: TEMPERATURE_ERROR };
  const n = Number(t);
  return n >= 0 && n <= 2 ? { ok: true, value: n } : { ok: false, error: TEMPERATURE_ERROR };
}

export function checkMaxTokens(text: string): Checked<number | null> {
  const t = text.trim();
  if (!t) return { ok: true, value: null };
  if (!/^\d{1,7}$/.test(t)) return { ok: false, error: MAX_TOKENS_ERROR };
  const n = Number(t);
  return n >= 1 && n <= 1_000_000 ? { ok: true, value: n } : { ok: false, error: MAX_TOKENS_ERROR };
}

export function checkModel(text: string): Checked<string> {
  const t = text.trim();
  return t.length <= 200 ? { ok: true, value: t } : { ok: false, error: MODEL_ERROR };
}

/** A run this panel made, as its list keeps it (in the webview's state, so a reload keeps it too). */
export interface RunRecord {
  runId: string;
  outcome: 'done' | 'error' | 'stopped';
  answer: string;
  /** The answer was longer than what the list keeps. */
  truncated: boolean;
  usage: { input: number; output: number; total: number } | null;
  latencyMs: number;
  trace: TraceStatus;
  error: string | null;
  hint: string | null;
  /** When it finished (ms since the epoch). */
  at: number;
  chat: boolean;
  /** The session it was a turn of (chat mode). */
  sessionId: string;
  followUp: string | null;
}

export const MAX_RUNS = 20;
/** What the list keeps of an answer: enough to read, not enough to make the webview's state heavy. */
export const KEPT_ANSWER = 20_000;

/** The run in flight: its id once the host answered, and what it was asked. */
export interface ActiveRun {
  runId: string | null;
  chat: boolean;
  followUp: string | null;
}

export const formatUsage = (u: { input: number; output: number; total: number }) => `${u.input} in · ${u.output} out · ${u.total} tokens`;

export function formatLatency(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/**
 * The variable a run error is about, when it names one: the templates' own message is
 * `(f-string) Missing value for input <name>`. The longest name wins (`text` inside `text_2`).
 */
export function variableOf(message: string, variables: readonly string[]): string | undefined {
  const m = /Missing value for input\s+(.+)$/i.exec(message.trim());
  if (!m) return undefined;
  const named = m[1]!.trim().replace(/^["'`{]+|["'`}.]+$/g, '');
  if (variables.includes(named)) return named;
  return [...variables].sort((a, b) => b.length - a.length).find((v) => m[1]!.includes(v));
}

/** Rows for a text area that grows with what is typed, within reason. */
export function rowsFor(text: string, min = 2, max = 12): number {
  let rows = 0;
  for (const line of text.split('\n')) rows += Math.max(1, Math.ceil(line.length / 70));
  return Math.min(max, Math.max(min, rows));
}

export const shortId = (id: string) => id.slice(0, 8);

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * A record's own entry: variable names come from the prompt, and one named `constructor` or `__proto__` must not
 * find what every object inherits.
 */
export const own = <T,>(record: Record<string, T>, name: string): T | undefined => (Object.hasOwn(record, name) ? record[name] : undefined);

/** A name that reads as a count, a limit or a size: `max_words`, `num_results`, `top_k`, `n`, `word_count`, `limit`. */
const NUMBER_NAME = /^(n|k|count|limit|size|length|number|max|min|top_k)$|^(max|min|num|n|top|number)_|_(count|limit|size|length|number|num|max|min|words|tokens|sentences|items|results|k)$/i;
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;

/**
 * Whether a variable's field is one line: a number, by its name or by the value last used with it (not by what is
 * being typed, so the field does not change under the cursor), and never a value that already has line breaks.
 */
export function isOneLine(name: string, remembered: string | undefined, value: string): boolean {
  if (value.includes('\n')) return false;
  return NUMBER_NAME.test(name) || (remembered !== undefined && NUMBER.test(remembered.trim()));
}
