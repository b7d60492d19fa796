// How times, durations, tokens and costs read on the page.
import type { Cost, Tokens } from '../../../../src/protocol/trace';

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const min = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s ? `${min} min ${s} s` : `${min} min`;
}

export function duration(start: number | null, end: number | null): number | null {
  return start !== null && end !== null ? end - start : null;
}

export function formatTime(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function formatCount(n: number | null): string {
  return n === null ? '–' : n.toLocaleString('en-US');
}

/** A run's token count, or nothing when it used none (a tool, a chain the server does not roll up). */
export function formatTokens(t: Tokens): string {
  return t.total === null || t.total === 0 ? '' : t.total.toLocaleString('en-US');
}

export function formatCost(cost: Cost | null): string | undefined {
  const total = cost?.total;
  if (total === null || total === undefined) return undefined;
  if (total === 0) return '$0';
  if (total < 0.0001) return `$${total.toPrecision(2)}`;
  return `$${total.toFixed(4)}`;
}

export const RUN_TYPE_LABEL: Record<string, string> = {
  llm: 'LLM',
  chain: 'Chain',
  tool: 'Tool',
  retriever: 'Retriever',
  prompt: 'Prompt',
  parser: 'Parser',
  embedding: 'Embedding',
};

/** The letters of a run type's icon (text in a coloured box, styled by the stylesheet: no icon font). */
export const RUN_TYPE_GLYPH: Record<string, string> = {
  llm: 'AI',
  chain: 'Ch',
  tool: 'T',
  retriever: 'R',
  prompt: 'P',
  parser: 'Pa',
  embedding: 'E',
};
