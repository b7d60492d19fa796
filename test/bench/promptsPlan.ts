/**
 * `npm run bench:plan`: `langsmith-workbench prompts plan` over 200 prompt files against the local server, the
 * command line run as CI runs it (the production dist/cli.js, built first into a temporary folder, as a `node`
 * child process). The files are applied once (with the tag `staging`), then some are changed, and plan runs:
 *
 *   all unchanged         plan over the 200 files as applied; requests per unchanged prompt = requests / 200
 *   unchanged + changed   BENCH_CHANGED files (default 10) given a new message; the requests of the whole run over
 *                         the unchanged ones (an upper bound: the changed ones' reads are counted too)
 *   with --tag staging    the same files with the tag asked for: where the tag points is read for each prompt
 *
 * Then `prompts apply` (--yes) on the same folder:
 *
 *   C changed             BENCH_CHANGED files given a new message each run, applied without a tag; the apply's
 *                         requests beyond its plan's (a `prompts plan` of the same files, counted just before) are
 *                         its pushes: requests per changed file = (apply − plan) / BENCH_CHANGED
 *   C changed, --tag      the same with --tag staging (the tag moves to each new commit)
 *   nothing changed       an apply that has nothing to do: its requests are the plan's; per unchanged file =
 *                         requests / files; the same with --tag staging, where each prompt's tags are read; the goal
 *                         is checked on the requests beyond the untagged run's (settings and the listing, which serve
 *                         every file at once)
 *
 * Wall time is from starting the child process to its exit (Node's start included); requests are the server's own
 * count (GET /__local/stats before and after). Goals: plan (issue 26) ≤ 5 s wall, ≤ 2 requests per unchanged
 * prompt; apply (issue 36) ≤ 3 requests per changed file, ≤ 1 per unchanged one.
 *
 * Options: BENCH_FILES=200 · BENCH_CHANGED=10 · BENCH_RUNS=3 (the median is shown) · --help
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalServer, type LocalServer } from '../harness/localServer';

const ROOT = path.resolve(__dirname, '../..');
const FILES = Number(process.env['BENCH_FILES'] ?? 200);
const CHANGED = Number(process.env['BENCH_CHANGED'] ?? 10);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const GOALS = { wallMs: 5000, requestsPerUnchanged: 2, applyPerChanged: 3, applyPerUnchanged: 1 };

const log = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function promptText(i: number, version = 1): string {
  const withModel = i % 4 === 0;
  return [
    `prompt: bench-plan-${String(i).padStart(3, '0')}`,
    `description: Bench prompt ${i}.`,
    'tags: [bench]',
    'template_format: f-string',
    'input_variables: [question, tone]',
    'messages:',
    '  - role: system',
    `    template: You answer questions about topic ${i} in a {tone} tone (version ${version}).`,
    '  - placeholder: history',
    '    optional: true',
    '  - role: human',
    '    template: "{question}"',
    ...(withModel ? ['model:', '  class: langchain.chat_models.openai.ChatOpenAI', '  model: gpt-4o-mini', '  temperature: 0'] : []),
    '',
  ].join('\n');
}

async function requests(srv: LocalServer): Promise<number> {
  const res = await fetch(`${srv.url}/__local/stats`, { headers: { 'x-api-key': srv.apiKey } });
  return ((await res.json()) as { requests: number }).requests;
}

function runCli(cli: string, args: string[], cwd: string, srv: LocalServer): Promise<{ code: number | null; ms: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', LANGSMITH_ENDPOINT: srv.url, LANGSMITH_API_KEY: srv.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ms: performance.now() - t0, stdout, stderr }));
  });
}

/** Runs the command line once; its wall time and the requests it made (its exit status checked). */
async function counted(label: string, cli: string, args: string[], cwd: string, srv: LocalServer, wantCode: number): Promise<{ ms: number; made: number; stdout: string }> {
  const before = await requests(srv);
  const res = await runCli(cli, args, cwd, srv);
  // The first stats request is counted once it has answered, so it is in the second count.
  const made = (await requests(srv)) - before - 1;
  if (res.code !== wantCode) throw new Error(`${label}: ${args.slice(0, 2).join(' ')} exited ${res.code}, expected ${wantCode}\n${res.stdout.slice(-2000)}\n${res.stderr}`);
  return { ms: res.ms, made, stdout: res.stdout };
}

async function measure(label: string, cli: string, args: string[], cwd: string, srv: LocalServer, unchanged: number, wantCode: number) {
  const walls: number[] = [];
  const counts: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const res = await counted(label, cli, args, cwd, srv, wantCode);
    walls.push(res.ms);
    counts.push(res.made);
  }
  const wall = median(walls);
  const made = median(counts);
  const per = made / unchanged;
  const ok = wall <= GOALS.wallMs && per <= GOALS.requestsPerUnchanged;
  log(
    `${label.padEnd(22)} wall ${Math.round(wall).toString().padStart(5)} ms (goal ≤ ${GOALS.wallMs})   requests ${String(made).padStart(4)}   ` +
      `per unchanged prompt ${per.toFixed(2)} (goal ≤ ${GOALS.requestsPerUnchanged})   ${ok ? 'ok' : 'MISSED'}`,
  );
  return ok;
}

/**
 * Applies `changed` files given a new message each run (version `next()`): the plan of the same files first, then
 * the apply; the apply's requests beyond the plan's are its pushes.
 */
async function measureApplyChanged(label: string, cli: string, tags: string[], dir: string, srv: LocalServer, changed: number[], next: () => number) {
  const walls: number[] = [];
  const plans: number[] = [];
  const applies: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const version = next();
    for (const i of changed) fs.writeFileSync(path.join(dir, `bench-plan-${String(i).padStart(3, '0')}.prompt.yaml`), promptText(i, version));
    plans.push((await counted(label, cli, ['prompts', 'plan', ...tags], dir, srv, 2)).made);
    const res = await counted(label, cli, ['prompts', 'apply', '--yes', ...tags], dir, srv, 0);
    if (!res.stdout.includes(`Applied ${changed.length} of ${changed.length}.`)) throw new Error(`${label}: not every file was applied\n${res.stdout.slice(-2000)}`);
    walls.push(res.ms);
    applies.push(res.made);
  }
  const plan = median(plans);
  const made = median(applies);
  const per = (made - plan) / changed.length;
  const ok = per <= GOALS.applyPerChanged;
  log(
    `${label.padEnd(22)} wall ${Math.round(median(walls)).toString().padStart(5)} ms   requests ${String(made).padStart(4)} (its plan ${plan})   ` +
      `per changed file ${per.toFixed(2)} (goal ≤ ${GOALS.applyPerChanged})   ${ok ? 'ok' : 'MISSED'}`,
  );
  return ok;
}

/** An apply with nothing to do; `shared` (the untagged run's count) is what serves every file at once. */
async function measureApplyUnchanged(label: string, cli: string, tags: string[], dir: string, srv: LocalServer, files: number, shared?: number) {
  const walls: number[] = [];
  const counts: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const res = await counted(label, cli, ['prompts', 'apply', '--yes', ...tags], dir, srv, 0);
    if (!res.stdout.includes('Nothing to apply.')) throw new Error(`${label}: something was applied\n${res.stdout.slice(-2000)}`);
    walls.push(res.ms);
    counts.push(res.made);
  }
  const made = median(counts);
  const beyond = (made - (shared ?? made)) / files;
  const ok = beyond <= GOALS.applyPerUnchanged;
  log(
    `${label.padEnd(22)} wall ${Math.round(median(walls)).toString().padStart(5)} ms   requests ${String(made).padStart(4)}   per unchanged file ${(made / files).toFixed(3)}` +
      `${shared === undefined ? ' (all read for every file at once)' : `, ${beyond.toFixed(3)} beyond the untagged run's ${shared}`} (goal ≤ ${GOALS.applyPerUnchanged})   ${ok ? 'ok' : 'MISSED'}`,
  );
  return { ok, made };
}

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    const text = fs.readFileSync(__filename, 'utf8');
    log(text.slice(text.indexOf('/**') + 3, text.indexOf('*/')).replace(/^ \* ?/gm, '').trim());
    return;
  }
  const build = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-bench-plan-build-'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-bench-plan-'));
  const srv = await startLocalServer();
  try {
    execFileSync(process.execPath, ['esbuild.mjs', '--production', '--only=cli', `--out=${build}`], { cwd: ROOT, stdio: 'pipe' });
    const cli = path.join(build, 'cli.js');
    for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(dir, `bench-plan-${String(i).padStart(3, '0')}.prompt.yaml`), promptText(i));
    log(`prompts plan over ${FILES} prompt files, local server ${srv.url}, ${RUNS} runs each (median), ${os.cpus().length} CPUs`);
    const first = await counted('first apply', cli, ['prompts', 'apply', '--yes', '--tag', 'staging'], dir, srv, 0);
    log(`first apply (create ${FILES} prompts, commit, tag): ${Math.round(first.ms)} ms, ${first.made} requests, ${(first.made / FILES).toFixed(2)} per file`);

    let ok = await measure('all unchanged', cli, ['prompts', 'plan'], dir, srv, FILES, 0);
    for (let i = 0; i < CHANGED; i++) fs.writeFileSync(path.join(dir, `bench-plan-${String(i * 7).padStart(3, '0')}.prompt.yaml`), promptText(i * 7, 2));
    ok = (await measure(`${FILES - CHANGED} + ${CHANGED} changed`, cli, ['prompts', 'plan'], dir, srv, FILES - CHANGED, 2)) && ok;
    ok = (await measure('with --tag staging', cli, ['prompts', 'plan', '--tag', 'staging'], dir, srv, FILES - CHANGED, 2)) && ok;

    log(`prompts apply over the same ${FILES} files, ${RUNS} runs each (median)`);
    const changed = Array.from({ length: CHANGED }, (_, i) => i * 7);
    let version = 1;
    const next = () => ++version;
    ok = (await measureApplyChanged(`apply ${CHANGED} changed`, cli, [], dir, srv, changed, next)) && ok;
    ok = (await measureApplyChanged(`${CHANGED} changed, --tag`, cli, ['--tag', 'staging'], dir, srv, changed, next)) && ok;
    const untagged = await measureApplyUnchanged('apply, none changed', cli, [], dir, srv, FILES);
    const tagged = await measureApplyUnchanged('none changed, --tag', cli, ['--tag', 'staging'], dir, srv, FILES, untagged.made);
    ok = untagged.ok && tagged.ok && ok;
    log(ok ? 'All goals met.' : 'A goal was missed.');
    if (!ok) process.exitCode = 1;
  } finally {
    await srv.close();
    fs.rmSync(build, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
