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
          log(`  ${spec.workload} ${impl.padEnd(8)} round ${r + 1}: ${res.ms.toFixed(0)} ms, ${res.requests} requests, peak +${res.peakMB.toFixed(1)} MB, check ${res.check}`);
        }
      }
      const m = (impl: Impl, k: 'ms' | 'requests' | 'peakMB' | 'check' | 'pushRequests') => median(results[impl].map((x) => Number(x[k] ?? 0)));
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
        `${m('ours', 'requests')} / ${m('official', 'requests')} | ${extra} | ${spec.goal} |`;
      rows.push(row);
      log(`${spec.title}: time ×${ratio('ms').toFixed(2)}, peak memory ×${ratio('peakMB').toFixed(2)}, requests ${m('ours', 'requests')} vs ${m('official', 'requests')}; ${extra}\n`);
    }
  } finally {
    await srv.close();
  }
  const table = [
    '| Work | Time, ours / official (median) | Time ratio | Peak memory above start, ours / official | Memory ratio | Requests, ours / official | Check | Goal (ours / official) |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  process.stdout.write(`\n${table}\n`);
  if (process.argv.includes('--write')) {
    const doc = `# Benchmarks: API client, ours vs the official \`langsmith\` client

Produced by \`npm run bench -- --write\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${ROUNDS} rounds,
scale ${SCALE}). Both clients run the same workload against the local server (in-memory database), each trial
in a fresh process, alternating which client goes first; the figures are medians. Memory is the peak resident
set size (sampled every 5 ms) above the level just before the measured section; requests are counted by wrapping \`fetch\`.

${table}

The machine is shared with other work, so the figures move between runs: peak memory in particular depends
on when the garbage collector runs (in the runs of the read workload on 2026-11-21, under heavy load from
other work, ours peaked between 42 and 92 MB and the official client between 40 and 58 MB), and a
ratio close to a goal's bound can land on either side of it from one run to the next.

Where the difference comes from:
- **Creating examples**: ours sends client-generated ids in multipart batches of up to 1,000 examples
  (two requests in flight) and does not read the examples back; the official client uploads in one request and
  then reads every example back with one GET each, all at once.
- **Reading examples**: both ask for pages of 100 (the API's maximum); ours keeps up to three further pages in
  flight while the current one is consumed (memory stays bounded by four pages) and hands examples out from
  a single generator; the official client waits for each page before asking for the next.
- **Tracing**: ours merges each run's creation and end into one record while pending and sends each batch
  as one contiguous multipart body.
- **Prompt push**: ours reads the repository once (which tells whether it exists and its latest commit),
  then commits: two requests. The official client checks existence twice and looks up the latest commit
  before committing: four.

Goals not met, and why:
- **Reading examples (goal ≤ 0.5 time)**: the local server no longer sets the floor: it continues a listing
  where the previous page ended instead of stepping over \`offset\` rows, so a page of 100 costs about the
  same (≈ 1.5 ms end to end over loopback) at any depth, where it used to grow to 10–14 ms at 100,000.
  With that, and ours handing examples out from one generator instead of a generator wrapped in another,
  ours went from ≈ 1.9 s to ≈ 1.1 s; the official client, which waited on the server page by page, gained
  even more, so the ratio did not fall. What is left is work both clients do on every page: receiving and parsing about
  100 KB of JSON, plus, in ours, validating every example against its schema (the client promises validated,
  typed results). Pages larger than the API's maximum of 100 would cut the per-request share, but LangSmith
  refuses them, so the client does not ask for them.
- **Reading examples, memory (goal ≤ 1.0)**: at the bound rather than under it: 0.90–0.98 in most runs on
  2026-11-21, above 1.0 in some (the recorded run among them). Ours holds at most four pages of 100 at a time
  and the official client one; the peaks are dominated by parsed pages not yet collected, and ours also
  makes a validated copy of each example, so it produces somewhat more garbage per page.
- **Prompt push + pull (goal ≤ 0.5 time)**: both clients spend about the same time per request; ours makes
  600 requests (2 per push, 1 per pull) against the official client's 1,000, so 0.6 is the floor for this
  work. A one-request push would have to leave the parent commit to the server: LangSmith's OpenAPI marks
  \`parent_commit\` optional but does not say what an omitted one means, and its own clients always look up
  the latest commit and send it, so ours keeps the spec's "parent defaults to the latest commit" on the client
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
