/**
 * `npm run bench`: the same workloads through the official `langsmith` client and ours, on the local
 * server, alternating, each trial in a fresh process; prints medians and ratios (ours / official) and,
 * with `--write`, records them in docs/BENCHMARKS.md.
 *
 *   BENCH_ROUNDS=3 (default) · BENCH_SCALE=1 (fraction of the full sizes, for a quick look)
 *   BENCH_ONLY=readExamples,trace (a subset of the workloads)
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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
  const { startTestServer } = await import('../harness/localServer');
  const { LangSmithClient } = await import('../../src/client');
  const srv = await startTestServer();
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

The machine is shared with other work, so the figures move between runs: peak memory in particular depends
on when the garbage collector runs, and the read workload's time ratio depends on whether the client and the
server each get a core (see below). A ratio close to a goal's bound can land on either side of it from one
run to the next. Ranges over the runs of 2026-11-21 (the recorded run and the others of that day) are given
below where they matter.

Where the difference comes from:
- **Creating examples**: ours sends client-generated ids in multipart batches of up to 1,000 examples
  (two requests in flight) and does not read the examples back; the official client uploads in one request and
  then reads every example back with one GET each, all at once.
- **Reading examples**: both ask for pages of 100 (the API's maximum); ours keeps up to three further pages in
  flight while the current one is consumed (memory stays bounded by four pages) and hands examples out from
  a single generator; the official client waits for each page before asking for the next. Ours checks each
  page in place (the same rules and result as its zod schema, with the freshly parsed JSON completed rather
  than copied example by example), which cut its CPU time for the 50,000 examples from ≈ 0.8–1.1 s to
  ≈ 0.6–0.8 s and removed a second copy of every example from the garbage; a malformed page is still
  refused with "unexpected answer from the server" and the path of each problem.
  Peak memory for the read is now at or under the official client's in the runs of 2026-11-21 after the
  change (0.89–0.99, where it was 0.90–1.56 before): the peaks are dominated by parsed pages not yet
  collected, not by the pages ours holds.
- **Tracing**: ours merges each run's creation and end into one record while pending and sends each batch
  as one contiguous multipart body.
- **Prompt push**: ours reads the repository once (which tells whether it exists and its latest commit),
  then commits: two requests. The official client checks existence twice and looks up the latest commit
  before committing: four.

Goals not met, and why:
- **Reading examples (goal ≤ 0.5 time)**: 0.69–0.73 in most runs on 2026-11-21 after the change (0.70–1.16
  before it), and 1.02 in one run where other work kept one of the machine's two cores busy. The local
  server answers one request at a time and spends ≈ 1 ms of CPU on a page of 100 (≈ 0.5 s for the workload);
  each client spends as much or more per page (ours ≈ 1.2–1.6 ms of CPU) in \`fetch\` (request objects, the socket writes over
  loopback, reading the body) and \`JSON.parse\` of ≈ 120 KB, and ours a little more for validation. The
  official client does the two one after the other; ours overlaps them, which on two free cores brings it
  close to the larger of the two, about 0.6–0.7 of the official time, and on one free core gains nothing.
  0.5 would need the client's share per page to be well below the server's. Pages larger than the API's
  maximum of 100 would cut the per-request share, but LangSmith refuses them, so the client does not ask
  for them; a deeper prefetch does not help either (one page in flight already keeps the single-threaded
  server busy; one, two and three pages measured the same within the noise).
- **Prompt push + pull (goal ≤ 0.5 time)**: 0.55–0.81 on 2026-11-21 (the client's push and pull are
  unchanged; the spread is noise). Both clients spend about the same
  time per request (the server's work, and on the client side mostly \`fetch\` and its socket writes over
  loopback, ≈ 0.8–1 ms of CPU per request in ours, which both clients pay alike); ours makes 600 requests (2 per push, 1 per pull) against the official client's 1,000, so ≈ 0.6
  is the floor for this work. A one-request push would have to leave the parent commit to the server. The
  local server does take an omitted \`parent_commit\` as the latest commit, but LangSmith's OpenAPI marks
  \`parent_commit\` optional without saying what an omitted one means, and LangSmith's own clients never rely
  on it: the JS client's \`createCommit\` and the Python client's \`create_commit\` look up the latest commit
  and send its hash whenever the caller gives none or \`latest\` (leaving \`parent_commit\` out only when the
  prompt has no commits yet). So ours keeps the spec's "parent defaults to the latest commit" on the client
  side. Answering pulls of just-pushed commits from memory would dodge real requests, so neither is done.
`;
    writeFileSync(join(ROOT, 'docs', 'BENCHMARKS.md'), doc);
    process.stdout.write('\nwrote docs/BENCHMARKS.md\n');
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
