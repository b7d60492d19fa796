/**
 * `npm run bench:agent`: the agent tool get_trace with a trace of 5,000 runs.
 *
 * The local server (in memory) gets one trace of BENCH_RUNS runs (a root, sections, steps with llm and tool runs,
 * some tools failing), written through its batch ingest. Then, BENCH_ROUNDS times each, a fresh client (as a newly
 * started `langsmith-workbench mcp` has: its first call also reads the server's version) calls get_trace through
 * the tools' shared call path (input checked, answer built, paged, key hidden):
 *
 *   by id       get_trace with the trace id only (the agent does not know the project)
 *   by project  get_trace with the project too, and the root run's inputs and outputs
 *   next page   page 2 of the same answer
 *
 * Figures: the time from the call to the answer, the requests the server counted, the first page's size and the
 * number of pages. Goals: ≤ 1,000 ms, ≤ 5 requests, first page ≤ 25,000 characters.
 *
 * Options: BENCH_RUNS=5000 · BENCH_ROUNDS=5 · --help
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { callTool, PAGE_CHARS } from '../../src/agent';
import { LangSmithClient } from '../../src/client';
import { startLocalServer, type LocalServer } from '../harness/localServer';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 5000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const GOALS = { ms: 1000, requests: 5, chars: PAGE_CHARS };
const log = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const stamp = (t: number) => new Date(t).toISOString().replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1000Z');

function traceRuns(n: number, project: string): { traceId: string; runs: Record<string, unknown>[] } {
  const traceId = randomUUID();
  const t0 = Date.now() - 3_600_000;
  const runs: Record<string, unknown>[] = [];
  const add = (name: string, runType: string, parent: { id: string; dotted: string } | null, start: number, end: number, extra: Record<string, unknown> = {}) => {
    const id = runs.length === 0 ? traceId : randomUUID();
    const dotted = `${parent ? `${parent.dotted}.` : ''}${stamp(start)}${id}`;
    runs.push({
      id, name, run_type: runType, session_name: project, trace_id: traceId, parent_run_id: parent?.id, dotted_order: dotted,
      start_time: new Date(start).toISOString(), end_time: new Date(end).toISOString(), inputs: { text: `${name} input` }, outputs: { text: `${name} output` }, ...extra,
    });
    return { id, dotted };
  };
  const root = add('BatchPipeline', 'chain', null, t0, t0 + n * 10 + 100);
  let clock = t0 + 1;
  for (let s = 0; runs.length < n; s++) {
    const section = add(`Section ${s}`, 'chain', root, clock, clock + 400);
    for (let k = 0; k < 24 && runs.length < n; k++) {
      const step = add(`Step ${s}.${k}`, 'chain', section, clock + k * 10, clock + k * 10 + 9);
      if (runs.length < n) add('ChatOpenAI', 'llm', step, clock + k * 10 + 1, clock + k * 10 + 6, { prompt_tokens: 300, completion_tokens: 40, total_tokens: 340 });
      if (runs.length < n) add(k % 7 === 3 ? 'flaky_tool' : 'lookup', 'tool', step, clock + k * 10 + 6, clock + k * 10 + 8, k % 7 === 3 ? { error: 'ToolError: timed out' } : {});
    }
    clock += 401;
  }
  return { traceId, runs };
}

async function ingest(srv: LocalServer, runs: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < runs.length; i += 500) {
    const res = await fetch(`${srv.url}/runs/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': srv.apiKey },
      body: JSON.stringify({ post: runs.slice(i, i + 500) }),
    });
    if (!res.ok) throw new Error(`ingest failed: ${res.status} ${await res.text()}`);
  }
}

interface Call {
  ms: number;
  requests: number;
  chars: number;
  pages: number;
}

async function measure(srv: LocalServer, input: Record<string, unknown>): Promise<Call> {
  const client = new LangSmithClient({ apiUrl: srv.url, apiKey: srv.apiKey });
  const before = srv.server.stats().requests;
  const start = performance.now();
  const a = await callTool('get_trace', input, { client, secrets: [srv.apiKey] });
  const ms = performance.now() - start;
  if (a.isError) throw new Error(a.text);
  const pages = Number(/Page \d+ of (\d+)/.exec(a.text)?.[1] ?? 1);
  return { ms, requests: srv.server.stats().requests - before, chars: a.text.length, pages };
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    const text = fs.readFileSync(__filename, 'utf8');
    log(text.slice(text.indexOf('/**') + 3, text.indexOf('*/')).replace(/^ ?\* ?/gm, '').trim());
    return;
  }
  const srv = await startLocalServer();
  try {
    const project = 'bench-agent-trace';
    const { traceId, runs } = traceRuns(RUNS, project);
    await ingest(srv, runs);
    log(`get_trace: one trace of ${RUNS.toLocaleString('en')} runs, ${ROUNDS} rounds, local server ${srv.url}`);
    const cases: Record<string, Call[]> = { 'by id': [], 'by project': [], 'next page': [] };
    for (let round = 0; round < ROUNDS; round++) {
      cases['by id']!.push(await measure(srv, { traceId }));
      cases['by project']!.push(await measure(srv, { traceId, project, runIds: [traceId] }));
      cases['next page']!.push(await measure(srv, { traceId, project, page: 2 }));
      const [a, b, c] = Object.values(cases).map((x) => x[round]!);
      log(`  round ${round + 1}: by id ${Math.round(a!.ms)} ms (${a!.requests} req, ${a!.chars} chars, ${a!.pages} pages) · by project ${Math.round(b!.ms)} ms (${b!.requests} req) · page 2 ${Math.round(c!.ms)} ms (${c!.requests} req)`);
    }
    const ok = (b: boolean) => (b ? 'yes' : '**no**');
    log('');
    log('<!-- bench:agent -->');
    log('| Measure | Median | Worst | Goal | Met |');
    log('|---|---|---|---|---|');
    for (const [name, calls] of Object.entries(cases)) {
      const worstMs = Math.max(...calls.map((c) => c.ms));
      const worstReq = Math.max(...calls.map((c) => c.requests));
      const worstChars = Math.max(...calls.map((c) => c.chars));
      log(`| get_trace ${name}: answer | ${Math.round(median(calls.map((c) => c.ms)))} ms | ${Math.round(worstMs)} ms | ≤ ${GOALS.ms} ms | ${ok(worstMs <= GOALS.ms)} |`);
      log(`| get_trace ${name}: requests | ${median(calls.map((c) => c.requests))} | ${worstReq} | ≤ ${GOALS.requests} | ${ok(worstReq <= GOALS.requests)} |`);
      log(`| get_trace ${name}: page size (of ${calls[0]!.pages} pages) | ${median(calls.map((c) => c.chars))} chars | ${worstChars} chars | ≤ ${GOALS.chars.toLocaleString('en')} | ${ok(worstChars <= GOALS.chars)} |`);
    }
    log('<!-- /bench:agent -->');
  } finally {
    await srv.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
