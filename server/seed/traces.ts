// Nested traces for the demo projects: a run spec with its children, written through run ingestion.
import type { Ctx, Tenant } from '../context';
import { newId } from '../ids';
import { ingestCreate } from '../store/runs';

export function ts(base: number, offsetMs: number) {
  return new Date(base + offsetMs).toISOString();
}

export function dotted(parent: string | null, startIso: string, id: string) {
  const seg = `${startIso.replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1000Z')}${id}`;
  return parent ? `${parent}.${seg}` : seg;
}

export interface RunSpec {
  name: string;
  run_type: string;
  inputs: object;
  outputs?: object | null;
  error?: string | null;
  startOffset: number;
  duration: number;
  tokens?: [number, number];
  children?: RunSpec[];
  tags?: string[];
}

export function writeTrace(ctx: Ctx, tenant: Tenant, sessionId: string, base: number, spec: RunSpec, parent?: { id: string; dotted: string; trace: string }): string {
  const id = newId();
  const start = ts(base, spec.startOffset);
  const d = dotted(parent?.dotted ?? null, start, id);
  const trace = parent?.trace ?? id;
  ingestCreate(ctx, tenant, {
    id, name: spec.name, run_type: spec.run_type, inputs: spec.inputs, outputs: spec.error ? null : spec.outputs ?? {},
    error: spec.error ?? null, start_time: start, end_time: ts(base, spec.startOffset + spec.duration), session_id: sessionId,
    parent_run_id: parent?.id ?? null, trace_id: trace, dotted_order: d, tags: spec.tags ?? [],
    extra: { metadata: { ls_provider: spec.run_type === 'llm' ? 'openai' : undefined, ls_model_name: spec.run_type === 'llm' ? 'gpt-4o-mini' : undefined } },
    prompt_tokens: spec.tokens?.[0], completion_tokens: spec.tokens?.[1], total_tokens: spec.tokens ? spec.tokens[0] + spec.tokens[1] : undefined,
  });
  for (const child of spec.children ?? []) writeTrace(ctx, tenant, sessionId, base, child, { id, dotted: d, trace });
  return id;
}
