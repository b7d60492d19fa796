// The agent tools: one table for both fronts (the MCP server, the editor's language-model tools), and the call
// path they share: the input checked against the tool's schema before any request, the answer paged, errors as
// sentences, the API key hidden from everything that leaves.
import { z } from 'zod';
import { READS } from './reads';
import { errorText, hideSecrets, pageOf } from './text';
import type { AgentTool, ToolContext } from './tool';
import { WRITES } from './writes';

export * from './tool';
export { PAGE_CHARS, pageOf, hideSecrets } from './text';

export const TOOLS: readonly AgentTool[] = [...READS, ...WRITES];

export function toolsFor(o: { readOnly?: boolean } = {}): AgentTool[] {
  return TOOLS.filter((t) => !o.readOnly || t.kind === 'read');
}

export function findTool(name: string): AgentTool | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** Every answer has this field besides the tool's own: which page of a long answer to return (1 first). */
export const PAGE_FIELD = z.number().int().min(1).max(10_000).optional().describe('Which page of a long answer (1, the default, is the first).');

/** Writes also take this: the exact change, described and not made (for hosts without a confirmation of their own). */
export const DRY_RUN_FIELD = z.boolean().optional().describe('true: describe exactly what the call would change, and change nothing.');

/** The tool's input schema with `page` (and `dryRun` for writes): what a host offers the model. */
export function inputSchemaOf(t: AgentTool): z.ZodObject {
  return t.kind === 'write' ? t.input.extend({ page: PAGE_FIELD, dryRun: DRY_RUN_FIELD }) : t.input.extend({ page: PAGE_FIELD });
}

export interface ToolAnswer {
  text: string;
  isError: boolean;
}

export type CheckedInput = { ok: true; input: Record<string, unknown>; page: number; dryRun: boolean } | { ok: false; error: string };

/** The input checked against the tool's schema: the parsed input, or one sentence naming each problem. */
export function checkInput(t: AgentTool, raw: unknown): CheckedInput {
  const schema = inputSchemaOf(t);
  const r = schema.safeParse(raw ?? {});
  if (!r.success) {
    const problems = r.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
    return { ok: false, error: `Invalid input for ${t.name}: ${problems.join('; ')}. Nothing was done.` };
  }
  const { page, dryRun, ...input } = r.data as Record<string, unknown> & { page?: number; dryRun?: boolean };
  return { ok: true, input, page: page ?? 1, dryRun: dryRun === true };
}

function secretsOf(ctx: ToolContext): string[] {
  return [...(ctx.secrets ?? []), process.env['LANGSMITH_API_KEY'], process.env['LANGCHAIN_API_KEY']].filter((s): s is string => !!s);
}

async function answer(ctx: ToolContext, work: () => Promise<string>, page: number): Promise<ToolAnswer> {
  const secrets = secretsOf(ctx);
  try {
    return { text: hideSecrets(pageOf(await work(), page), secrets), isError: false };
  } catch (e) {
    return { text: hideSecrets(errorText(e, ctx.client.apiUrl), secrets), isError: true };
  }
}

/** Calls a tool by name: never throws; bad input is an error answer and sends nothing. */
export async function callTool(name: string, raw: unknown, ctx: ToolContext): Promise<ToolAnswer> {
  const t = findTool(name);
  if (!t) return { text: `There is no tool “${name}”.`, isError: true };
  const checked = checkInput(t, raw);
  if (!checked.ok) return { text: checked.error, isError: true };
  if (checked.dryRun && t.prepare) {
    const prepare = t.prepare.bind(t);
    return answer(ctx, async () => `Dry run: nothing was changed. The call would do this:\n${await prepare(checked.input, ctx)}`, checked.page);
  }
  return answer(ctx, () => t.run(checked.input, ctx), checked.page);
}

/** A write's exact change, for the user to confirm; reads need no confirmation (an empty text). */
export async function prepareTool(name: string, raw: unknown, ctx: ToolContext): Promise<ToolAnswer> {
  const t = findTool(name);
  if (!t) return { text: `There is no tool “${name}”.`, isError: true };
  const checked = checkInput(t, raw);
  if (!checked.ok) return { text: checked.error, isError: true };
  if (!t.prepare) return { text: '', isError: false };
  const prepare = t.prepare.bind(t);
  return answer(ctx, () => prepare(checked.input, ctx), 1);
}
