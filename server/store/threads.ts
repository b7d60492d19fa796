// Threads: the conversations of a project. A thread is the traces (root runs) whose metadata names the same
// thread (thread_id, session_id or conversation_id: see THREAD_ID_SQL); each trace is one turn. Nothing is stored
// for a thread: every answer is computed from the runs.
import type { Ctx } from '../context';
import { THREAD_ID_SQL, runWhere, type RunRow } from './runs';

/** Which traces of a project count: a start-time window and filters on the root run or on any run of its tree. */
export interface TraceScope {
  projectId: string;
  minStart?: string | null;
  /** Exclusive upper bound. */
  maxStart?: string | null;
  filter?: string | null;
  traceFilter?: string | null;
  treeFilter?: string | null;
}

/** A root run with the thread it belongs to. */
export type ThreadTraceRow = RunRow & { thread_id: string };

function rootWhere(tenantId: string, s: TraceScope) {
  // Each filter is compiled on its own (two parameters, two conditions): for a root run the trace filter speaks
  // of the run itself, as `filter` does, but conditions of one `and()` on feedback mean one feedback row.
  const w = runWhere(
    { tenantId },
    {
      sessions: [s.projectId], isRoot: true, minStart: s.minStart, maxStart: s.maxStart, maxStartExclusive: true,
      filter: s.filter, traceFilter: s.traceFilter, treeFilter: s.treeFilter,
    },
  );
  return { sql: `${w.sql} AND ${THREAD_ID_SQL} IS NOT NULL`, params: w.params };
}

/**
 * A page of thread ids, the most recently active first, with one extra to tell whether more follow. A thread is
 * in the page when at least one of its traces is in scope.
 */
export function threadPage(ctx: Ctx, tenantId: string, s: TraceScope, limit: number, offset: number): { ids: string[]; more: boolean } {
  const w = rootWhere(tenantId, s);
  const rows = ctx.st.all<{ thread_id: string }>(
    `SELECT ${THREAD_ID_SQL} AS thread_id FROM runs WHERE ${w.sql}
      GROUP BY thread_id ORDER BY MAX(start_time) DESC, thread_id LIMIT ? OFFSET ?`,
    ...w.params, limit + 1, offset,
  );
  return { ids: rows.slice(0, limit).map((r) => String(r.thread_id)), more: rows.length > limit };
}

/** The in-scope traces of the given threads, oldest first. */
export function threadTraces(ctx: Ctx, tenantId: string, s: TraceScope, threadIds: string[], page?: { limit: number; offset: number }): ThreadTraceRow[] {
  if (!threadIds.length) return [];
  const w = rootWhere(tenantId, s);
  const paging = page ? ' LIMIT ? OFFSET ?' : '';
  return ctx.st.all<ThreadTraceRow>(
    `SELECT *, ${THREAD_ID_SQL} AS thread_id FROM runs WHERE ${w.sql} AND ${THREAD_ID_SQL} IN (SELECT value FROM json_each(?))
      ORDER BY start_time, id${paging}`,
    ...w.params, JSON.stringify(threadIds), ...(page ? [page.limit, page.offset] : []),
  );
}

/** Whether the project (of this workspace) has a trace in the thread at all. */
export function threadExists(ctx: Ctx, tenantId: string, threadId: string, projectId?: string): boolean {
  return !!ctx.st.one(
    `SELECT 1 FROM runs WHERE tenant_id = ? AND parent_run_id IS NULL AND ${THREAD_ID_SQL} = ?${projectId ? ' AND session_id = ?' : ''} LIMIT 1`,
    tenantId, threadId, ...(projectId ? [projectId] : []),
  );
}

export interface TokenSums {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** The costs the runs report (see runCosts in store/runs.ts); null when none does. */
  prompt_cost: number | null;
  completion_cost: number | null;
  total_cost: number | null;
}

/** A number from JSON, else NULL. */
const num = (expr: string) => `(CASE WHEN typeof(${expr}) IN ('integer', 'real') THEN ${expr} END)`;

/**
 * Tokens and costs per thread, over the runs of the given traces that carry the thread's id: as LangSmith counts
 * them (a child run without the thread metadata is not counted). Costs are those the runs report in their
 * usage_metadata, as runCosts reads them.
 */
export function threadTokens(ctx: Ctx, tenantId: string, traceIds: string[]): Map<string, TokenSums> {
  if (!traceIds.length) return new Map();
  const usage = "COALESCE(json_extract(outputs, '$.usage_metadata'), json_extract(extra, '$.metadata.usage_metadata'))";
  const rows = ctx.st.all<TokenSums & { thread_id: string }>(
    `SELECT thread_id, COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens, COALESCE(SUM(completion_tokens), 0) AS completion_tokens,
            COALESCE(SUM(total_tokens), 0) AS total_tokens, SUM(pc) AS prompt_cost, SUM(cc) AS completion_cost,
            SUM(COALESCE(tc, CASE WHEN pc IS NOT NULL OR cc IS NOT NULL THEN COALESCE(pc, 0) + COALESCE(cc, 0) END)) AS total_cost
       FROM (SELECT thread_id, prompt_tokens, completion_tokens, total_tokens, ${num("json_extract(u, '$.input_cost')")} AS pc,
                    ${num("json_extract(u, '$.output_cost')")} AS cc, ${num("json_extract(u, '$.total_cost')")} AS tc
               FROM (SELECT ${THREAD_ID_SQL} AS thread_id, prompt_tokens, completion_tokens, total_tokens, ${usage} AS u
                       FROM runs WHERE tenant_id = ? AND trace_id IN (SELECT value FROM json_each(?)) AND ${THREAD_ID_SQL} IS NOT NULL))
      GROUP BY thread_id`,
    tenantId, JSON.stringify(traceIds),
  );
  return new Map(rows.map((r) => [String(r.thread_id), r]));
}

/** Feedback on the runs of the given traces, per trace and key: count and mean score. */
export function traceFeedback(ctx: Ctx, tenantId: string, traceIds: string[]): Array<{ trace_id: string; key: string; score: number | null }> {
  if (!traceIds.length) return [];
  return ctx.st.all(
    `SELECT r.trace_id AS trace_id, f.key AS key, f.score AS score FROM feedback f JOIN runs r ON r.id = f.run_id AND r.tenant_id = f.tenant_id
      WHERE r.tenant_id = ? AND r.trace_id IN (SELECT value FROM json_each(?))`,
    tenantId, JSON.stringify(traceIds),
  );
}
