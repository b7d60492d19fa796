// Answers as a model reads them: short lines, ids and links, pages of at most PAGE_CHARS characters, errors as
// sentences, and never the API key.
import { LangSmithAuthError, LangSmithError, LangSmithNotFoundError, LangSmithTimeoutError, LangSmithValidationError } from '../client';
import { ToolInputError } from './tool';

export const PAGE_CHARS = 25_000;

/** Page `page` (1-based) of a text, cut at line ends; a closing line says how to ask for the next. */
export function pageOf(text: string, page = 1): string {
  const pages: string[] = [];
  let rest = text;
  const room = PAGE_CHARS - 120;
  while (rest.length > room) {
    let cut = rest.lastIndexOf('\n', room);
    if (cut < room / 2) cut = room;
    pages.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^\n/, '');
  }
  pages.push(rest);
  if (pages.length === 1) {
    if (page > 1) return `There is no page ${page}: this answer has one page.`;
    return text;
  }
  if (page > pages.length) return `There is no page ${page}: this answer has ${pages.length} pages.`;
  const body = pages[page - 1]!;
  const tail = page < pages.length ? `Page ${page} of ${pages.length}. Call again with the same input and page: ${page + 1} for the next.` : `Page ${page} of ${pages.length} (the last).`;
  return `${body}\n\n${tail}`;
}

/** Every occurrence of each secret replaced (keys shorter than 4 characters are not searched for). */
export function hideSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[hidden]');
  return out;
}

/** The sentence for an error: what was not found, a refused key, the spec's validation message. */
export function errorText(e: unknown, apiUrl: string): string {
  if (e instanceof ToolInputError) return e.message;
  if (e instanceof LangSmithAuthError) {
    return `LangSmith at ${apiUrl} refused the API key (${e.status}). The key or the workspace id (LANGSMITH_WORKSPACE_ID) is wrong or lacks access; the user must fix the connection.`;
  }
  if (e instanceof LangSmithNotFoundError) return `Not found: ${e.message}`;
  if (e instanceof LangSmithTimeoutError) return `LangSmith at ${apiUrl} did not answer in time: ${e.message}`;
  if (e instanceof LangSmithValidationError) return e.message;
  if (e instanceof LangSmithError && e.status === undefined && e.cause !== undefined) return `Cannot reach LangSmith at ${apiUrl}: ${e.message}`;
  if (e instanceof Error) return e.message;
  return String(e);
}

export function cut(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A value as one line of compact JSON, cut to `max` characters. */
export function json(value: unknown, max = 2000): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? 'null';
  } catch {
    s = String(value);
  }
  return s.length > max ? `${s.slice(0, max - 1)}… (${s.length} characters in all)` : s;
}

export function seconds(start: string | number | null | undefined, end: string | number | null | undefined): string {
  if (!start || !end) return '';
  const ms = new Date(end).getTime() - new Date(start).getTime();
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)}s` : '';
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
