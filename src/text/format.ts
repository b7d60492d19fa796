// Short texts for rows, tooltips, hovers and answers: plain data in, text out. No vscode: the editor, the agent tools
// and the command line share it. Words go through @vscode/l10n, which activation points at the extension's bundle.
import * as l10n from '@vscode/l10n';

export function formatLatency(start: string | number | null | undefined, end: string | number | null | undefined): string | undefined {
  if (start == null || end == null) return undefined;
  const ms = new Date(end).getTime() - new Date(start).getTime();
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** How long ago a time was, as a count of its largest unit within a month; else its date (YYYY-MM-DD). */
function age(value: string | number | null | undefined, now: number): { unit: 'now' | 'm' | 'h' | 'd'; n: number } | { date: string } | undefined {
  if (value == null) return undefined;
  const t = new Date(value).getTime();
  if (!Number.isFinite(t)) return undefined;
  const seconds = Math.round((now - t) / 1000);
  if (seconds < 60) return { unit: 'now', n: 0 };
  if (seconds < 3600) return { unit: 'm', n: Math.floor(seconds / 60) };
  if (seconds < 86_400) return { unit: 'h', n: Math.floor(seconds / 3600) };
  if (seconds < 30 * 86_400) return { unit: 'd', n: Math.floor(seconds / 86_400) };
  return { date: new Date(t).toISOString().slice(0, 10) };
}

/** How long ago, in words: just now, 5 min ago, 3 h ago, 2 d ago, else the date. */
export function formatWhen(value: string | number | null | undefined, now = Date.now()): string | undefined {
  const a = age(value, now);
  if (!a || 'date' in a) return a?.date;
  if (a.unit === 'now') return l10n.t('just now');
  if (a.unit === 'm') return l10n.t('{0} min ago', a.n);
  return a.unit === 'h' ? l10n.t('{0} h ago', a.n) : l10n.t('{0} d ago', a.n);
}

/** How long ago, in as few characters as a narrow row has: now, 5m, 3h, 2d, else the date. */
export function formatAgo(value: string | number | null | undefined, now = Date.now()): string | undefined {
  const a = age(value, now);
  if (!a || 'date' in a) return a?.date;
  if (a.unit === 'now') return l10n.t('now');
  if (a.unit === 'm') return l10n.t('{0}m', a.n);
  return a.unit === 'h' ? l10n.t('{0}h', a.n) : l10n.t('{0}d', a.n);
}

/** 1234 → 1,234; 12345 → 12.3k: token counts in a row. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return n < 10_000 ? n.toLocaleString('en-US') : n < 1_000_000 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1_000_000).toFixed(1)}M`;
}

/** A one-line preview of a JSON object (e.g. an example's inputs). */
export function summarize(value: unknown, max = 60): string {
  if (value == null) return '';
  let text: string;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    text = entries.length === 1 ? preview(entries[0][1]) : entries.map(([k, v]) => `${k}: ${preview(v)}`).join(', ');
  } else text = preview(value);
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Keys whose text is what a run was asked, in the order they are preferred. */
const ASKED_KEYS = ['question', 'query', 'input', 'prompt', 'text', 'message', 'content'];

/**
 * What a run was asked, as a row shows it: the text of its question (or query, input…) when its inputs have one,
 * else the preview of the whole inputs. Neighbours then differ from the first words on.
 */
export function askedText(inputs: unknown, max = 60): string {
  if (inputs && typeof inputs === 'object' && !Array.isArray(inputs)) {
    const record = inputs as Record<string, unknown>;
    const key = ASKED_KEYS.find((k) => typeof record[k] === 'string' && (record[k] as string).trim() !== '');
    if (key) return summarize(record[key], max);
  }
  return summarize(inputs, max);
}

function preview(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Text as a markdown code block whose fence is longer than any run of backticks in it, so nothing in it ends it. */
export function fenced(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
}

export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}

/**
 * About how many characters of label and description a row shows at the default sidebar width (~300 px) before
 * VS Code cuts it with “…”, at a depth in the tree (1 = a top-level row): each level indents it further.
 */
export function rowChars(depth: number): number {
  return Math.max(20, 32 - 2 * (depth - 1));
}

/**
 * A row's description from its parts, most telling first: as many as fit beside the label at the default width
 * (the first always); what is left out belongs in the row's tooltip.
 */
export function fitDescription(label: string, parts: (string | undefined)[], depth: number): string | undefined {
  const budget = rowChars(depth) - label.length - 1;
  let text = '';
  for (const part of parts) {
    if (!part) continue;
    const next = text ? `${text} · ${part}` : part;
    if (text && next.length > budget) break;
    text = next;
  }
  return text || undefined;
}
