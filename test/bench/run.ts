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

Where the difference comes from:
- **Creating examples**: ours sends client-generated ids in multipart batches of up to 1,000 examples
  (two requests in flight) and does not read the examples back; the official client uploads in one request and
  then reads every example back with one GET each, all at once.
- **Reading examples**: both ask for pages of 100 (the API's maximum); ours keeps up to three further pages in
  flight while the current one is consumed (memory stays bounded by four pages); the official client waits
  for each page before asking for the next.
- **Tracing**: ours merges each run's creation and end into one record while pending and sends each batch
  as one contiguous multipart body.
- **Prompt push**: ours reads the repository once (which tells whether it exists and its latest commit),
  then commits: two requests. The official client checks existence twice and looks up the latest commit
  before committing: four.

Goals not met, and why:
- **Reading examples (goal ≤ 0.5 time)**: the local server answers one request at a time and spends about
  3–5 ms on each page of 100 (more at deep offsets), so 500 pages cost it about 1.8 s whoever asks; ours
  overlaps its own parsing with the server's work and lands at that floor (measured separately: plain
  \`fetch\` of the same 500 pages, JSON only, four at a time, takes 1.7–2.0 s; one at a time, 2.2–2.4 s). Going lower would need pages
  larger than the API's maximum of 100, which LangSmith refuses, so the client does not do it.
- **Prompt push + pull (goal ≤ 0.5 time)**: both clients spend about the same time per request; ours makes
  600 requests (2 per push, 1 per pull) against the official client's 1,000, so 0.6 is the floor for this
  work. A one-request push would have to leave the parent commit to the server (LangSmith does not document
  that an omitted \`parent_commit\` means "latest", and its own clients always send it), and answering pulls
  of just-pushed commits from memory would only shift the comparison, so neither is done.
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
