/**
 * `npm run bench`: the same workloads through the official `langsmith` client and ours, on the local
 * server, alternating, each trial in a fresh process; prints medians and ratios (ours / official) and,
 * with `--write`, records them in docs/BENCHMARKS.md.
 *
 *   BENCH_ROUNDS=3 (default) · BENCH_SCALE=1 (fraction of the full sizes, for a quick look)
 *   BENCH_ONLY=readExamples,trace (a subset of the workloads)
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Impl, TrialArgs, TrialResult, Workload } from './clientWorkloads';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SCALE = Number(process.env['BENCH_SCALE'] ?? 1);
const ROOT = join(__dirname, '..', '..');

interface Spec {
  workload: Workload;
  title: string;
  count: number;
  goal: string;
}

const SPECS: Spec[] = [
  { workload: 'createExamples', title: 'Create 10,000 examples (~1 KB inputs and outputs)', count: 10_000, goal: '≤ 0.2 time, ≤ 0.3 peak memory, ≤ 20 requests' },
  { workload: 'readExamples', title: 'Read 50,000 examples by paging', count: 50_000, goal: '≤ 0.5 time, ≤ 1.0 peak memory' },
  { workload: 'trace', title: 'Trace 10,000 runs in manual-flush mode, then flush', count: 10_000, goal: '≤ 0.5 time, no more requests, none lost' },
  { workload: 'promptPushPull', title: 'Push 200 prompt commits, then pull each by hash', count: 200, goal: '≤ 0.5 time, ≤ 2 requests per push' },
];

function trial(args: TrialArgs): Promise<TrialResult & { pushRequests?: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', '--import=tsx', join(__dirname, 'clientWorkloads.ts'), JSON.stringify(args)],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, LANGSMITH_TRACING: 'false' } },
      (err, stdout, stderr) => {
        if (err) {
          reject(new Error(`${args.impl} ${args.workload} failed: ${stderr || err.message}`));
          return;
        }
        const line = stdout.trim().split('\n').pop()!;
        resolve(JSON.parse(line));
      },
    );
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const { startLocalServer } = await import('../harness/localServer');
  const { LangSmithClient } = await import('../../src/client');
  const srv = await startLocalServer();
  const rows: string[] = [];
  const log = (s: string) => process.stdout.write(`${s}\n`);
  try {
    const client = new LangSmithClient({ apiUrl: srv.url, apiKey: srv.apiKey });
    const readCount = Math.round(50_000 * SCALE);
    const readDs = await client.datasets.create({ name: `bench-read-${Date.now()}` });
    for (let i = 0; i < readCount; i += 10_000) {
      const n = Math.min(10_000, readCount - i);
      await client.examples.create({
        datasetId: readDs.id,
        examples: Array.from({ length: n }, (_, j) => ({ inputs: { q: `question ${i + j}`.padEnd(500, '.') }, outputs: { a: `answer ${i + j}`.padEnd(400, '.') } })),
      });
    }
    log(`server ${srv.url}; ${ROUNDS} rounds; scale ${SCALE}\n`);
    const only = process.env['BENCH_ONLY']?.split(',').filter(Boolean);
    for (const spec of SPECS.filter((x) => !only || only.includes(x.workload))) {
      const count = spec.workload === 'readExamples' ? readCount : Math.max(1, Math.round(spec.count * SCALE));
      const results: Record<Impl, (TrialResult & { pushRequests?: number })[]> = { ours: [], official: [] };
      for (let r = 0; r < ROUNDS; r++) {
        const order: Impl[] = r % 2 === 0 ? ['ours', 'official'] : ['official', 'ours'];
        for (const impl of order) {
          const res = await trial({ impl, workload: spec.workload, url: srv.url, apiKey: srv.apiKey, datasetId: readDs.id, count });
          results[impl].push(res);
          log(`  ${spec.workload} ${impl.padEnd(8)} round ${r + 1}: ${res.ms.toFixed(0)} ms, ${res.requests} requests, peak +${res.peakMB.toFixed(1)} MB, client CPU ${res.cpuMs.toFixed(0)} ms, check ${res.check}`);
        }
      }
      const m = (impl: Impl, k: 'ms' | 'requests' | 'peakMB' | 'check' | 'pushRequests' | 'cpuMs') => median(results[impl].map((x) => Number(x[k] ?? 0)));
      const ratio = (k: 'ms' | 'requests' | 'peakMB') => (m('official', k) > 0 ? m('ours', k) / m('official', k) : NaN);
      const perPush = (impl: Impl) => m(impl, 'pushRequests') / count;
      const extra =
        spec.workload === 'promptPushPull'
          ? `requests per push: ours ${perPush('ours').toFixed(2)}, official ${perPush('official').toFixed(2)}`
          : spec.workload === 'trace'
            ? `runs stored: ours ${m('ours', 'check')}/${count}, official ${m('official', 'check')}/${count}`
            : `items: ours ${m('ours', 'check')}, official ${m('official', 'check')}`;
      const row =
        `| ${spec.title} | ${m('ours', 'ms').toFixed(0)} / ${m('official', 'ms').toFixed(0)} ms | **${ratio('ms').toFixed(2)}** | ` +
        `${m('ours', 'peakMB').toFixed(1)} / ${m('official', 'peakMB').toFixed(1)} MB | **${ratio('peakMB').toFixed(2)}** | ` +
        `${m('ours', 'requests')} / ${m('official', 'requests')} | ${m('ours', 'cpuMs').toFixed(0)} / ${m('official', 'cpuMs').toFixed(0)} ms | ${extra} | ${spec.goal} |`;
      rows.push(row);
      log(`${spec.title}: time ×${ratio('ms').toFixed(2)}, peak memory ×${ratio('peakMB').toFixed(2)}, requests ${m('ours', 'requests')} vs ${m('official', 'requests')}; ${extra}\n`);
    }
  } finally {
    await srv.close();
  }
  const table = [
    '| Work | Time, ours / official (median) | Time ratio | Peak memory above start, ours / official | Memory ratio | Requests, ours / official | Client CPU, ours / official | Check | Goal (ours / official) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  process.stdout.write(`\n${table}\n`);
  if (process.argv.includes('--write')) {
    const doc = `# Benchmarks: API client, ours vs the official \`langsmith\` client

Produced by \`npm run bench -- --write\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${ROUNDS} rounds,
scale ${SCALE}). Both clients run the same workload against the local server (in-memory database), each trial
in a fresh process, alternating which client goes first; the figures are medians. Memory is the peak resident
set size (sampled every 5 ms) above the level just before the measured section; requests are counted on undici's request channel
(\`undici:request:create\`, where Node's built-in \`fetch\` and the undici package both announce each request); client CPU is
the client process's CPU time (all its threads) during the measured section.

${table}

The machine has two cores and is shared with other work, so the figures move between runs: peak memory in
particular depends on when the garbage collector runs. A ratio close to a goal's bound can land on either side
of it from one run to the next; ranges over several runs of the day are given below where they matter.

Where the difference comes from:
- **Transport (every workload)**: ours sends through undici's dispatcher API on a kept-alive connection
  pool and collects each answer whole; the official client goes through \`fetch\`, which builds WHATWG
  Request, Headers and stream objects for every call. The difference is most of a small request's CPU time:
  the 600 requests of the prompt workload cost ours ≈ 0.35 s of CPU against ≈ 1.1–1.2 s for the official
  client's 1,000. (In the editor the extension still hands the client VS Code's own \`fetch\` when no proxy or
  CA file is configured, because that one follows the system proxy.)
- **Creating examples**: ours sends client-generated ids in multipart batches of up to 1,000 examples
  (two requests in flight) and does not read the examples back; the official client uploads in one request and
  then reads every example back with one GET each, all at once.
- **Reading examples**: both ask for pages of 100 (the API's maximum); ours keeps further pages in flight
  while the current one is consumed (two by default; memory stays bounded by three pages) and hands examples
  out from a single generator; the official client waits for each page before asking for the next. Ours
  checks each page in place (the same rules and result as its zod schema, with the freshly parsed JSON
  completed rather than copied example by example); a malformed page is still refused with "unexpected
  answer from the server" and the path of each problem.
- **Tracing**: ours merges each run's creation and end into one record while pending and sends each batch
  as one contiguous multipart body.
- **Prompt push**: ours reads the repository once (which tells whether it exists and its latest commit),
  then commits: two requests. The official client checks existence twice and looks up the latest commit
  before committing: four. Pulls are one request each for both.

**Reading examples sits at its goal's bound (≤ 0.5 time) and is not reliably under it on this machine**:
the 5-round medians of 2026-11-21 ranged from 0.48 to 0.57 (0.50 in the run above), moving with the
machine's load more than with any change made that day; 0.69–0.73 before the transport change. The reason is
the machine: the local server and the client share its two cores, and both are busy. During ours the server
spends ≈ 0.43 s of CPU on the 500 pages (SQLite reading and composing them, and HTTP) and the client ≈ 0.55 s
(≈ 0.4 s on its main thread, of which \`JSON.parse\` of ≈ 120 KB per page is the largest part; ≈ 0.1 s on a
V8 thread compiling undici's WebAssembly HTTP parser to optimized code, which the official client's \`fetch\`
pays as well), so the elapsed time is bounded by the CPU of both together, about half of their sum. The
official client pays the server's time and its own one after the other. Work on the server speeds up both
clients by the same amount, so it hardly moves the ratio; only less client CPU does. Tried and not kept:
Node's own HTTP client instead of undici (no WebAssembly to compile, but more work per request: 2–3 %
faster in alternating trials), parsing prefetched pages only when their turn comes, a hand-written async
iterator instead of the generator (≈ 10 ms), one, two, three and six pages in flight (the same within the
noise), and HTTP pipelining (≈ 8 % less CPU on both sides, but unsafe against a remote LangSmith behind
proxies). Pages larger than the API's maximum of 100 would cut the per-request share, but LangSmith refuses
them, so the client does not ask for them. What the server does for both clients alike: a page (any
\`select\`) is composed as JSON by SQLite from the stored JSON text, over the row ids the page's query picks; a page asked for before the page in front
of it was answered starts from the nearest earlier page end instead of stepping through the index from the
start; the per-request hooks need no promises.

**2026-11-27: after the listing began selecting every field (commit 92475d9)**, the time ratio was said to be
slower. That does not show in CPU: in alternating trials on one server, our listing with every field selected and
with no \`select\` (LangSmith's default, what the official client asks) took the same CPU within the noise (four
pairs; client 0.93–1.00 s against 0.92–1.29 s, server 0.63–0.82 s against 0.62–0.93 s): the selection adds
\`"attachment_urls":{}\` (22 bytes) to each 1.2 KB example, and the server composes every \`select\` the same way.
The server now composes a page over the row ids its query picks, reading each revision once instead of copying
whole rows through a subquery (composing the 500 pages, in process: ≈ 245 → 215 ms of CPU, any \`select\` alike). **The goal
of ≤ 0.45 is not shown met**: the 5-round medians of the day were 0.48, 0.85 and 0.43 before that change (the
machine's load average rising from 1 to 7) and 0.76, 0.47, 1.04, 1.01, 0.71 and 0.66 after it (load 8–13, when a
trial took 2–15 s instead of about 1 s; the row above is the last of these). Under such contention the elapsed time follows the CPU both processes need;
the server's share (about a third of the CPU of an official run) is the same for both clients, so the ratio
tends to the ratio of CPU totals (≈ 0.6–0.7). Only with both cores free does ours overlap the server's work with
its own and come near 0.45; then ours is bound by its own main thread (\`JSON.parse\`, undici's parser, the
garbage collector), and speeding up the server alone does not move it.
`;
    // This section only: the file goes on with the other benchmarks' sections, each written by its own script.
    const file = join(ROOT, 'docs', 'BENCHMARKS.md');
    const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const next = old.search(/^# (?!Benchmarks: API client)/m);
    writeFileSync(file, next >= 0 ? `${doc}\n${old.slice(next)}` : doc);
    process.stdout.write('\nwrote docs/BENCHMARKS.md\n');
  }
}

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(`npm run bench [-- --write]: our client against the official langsmith client on the local server.
  BENCH_ROUNDS=${ROUNDS} · BENCH_SCALE=${SCALE} · BENCH_ONLY=${SPECS.map((s) => s.workload).join(',')}
  --write   record the results in docs/BENCHMARKS.md
`);
  process.exit(0);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
