/**
 * `npm run bench:experiment`: a demo-like prompt run over 500 examples on the local model at concurrency 8.
 *
 * The local server, in its own process as `npm run server` runs it (in memory), gets a dataset of BENCH_EXAMPLES support questions with reference answers. Then,
 * BENCH_ROUNDS times each, alternating:
 *
 *   direct      the same model calls without the engine: each example's prompt rendered to the very payload the
 *               experiment sends, POSTed to the server's /v1/chat/completions, BENCH_CONCURRENCY at once. What
 *               the server itself takes for the experiment's model calls.
 *   experiment  runExperiment() over the dataset with the same model and concurrency: listing the examples,
 *               creating the project, the runs (prompt, model, parser, each traced), the evaluators (none by
 *               default; BENCH_EVALUATORS=1 adds contains and similarity, each a feedback write per example)
 *               and the final flush of the traces.
 *
 * Reported: the best wall time of each and their ratio (goal ≤ 1.3), and for every experiment the root runs the
 * server holds for it: lost (examples without a root run) and duplicated (examples with more than one) must be 0.
 *
 * Options: BENCH_EXAMPLES=500 · BENCH_CONCURRENCY=8 · BENCH_ROUNDS=3 · BENCH_EVALUATORS=0 · --help
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LangSmithClient, OpenAIChatModel, PromptTemplate, toMessages, type ModelInput } from '../../src/client';
import { runExperiment, type EvaluatorSpec } from '../../src/experiments';
import { bundleServerCli } from '../harness/serverCli';

/** The server as a user runs it: its own process (the CLI bundle), in memory, on a free port. */
interface ServerProcess {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

async function startServerProcess(): Promise<ServerProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-bench-experiment-'));
  const bundle = await bundleServerCli(dir);
  const child = spawn(process.execPath, [bundle, '--port', '0', '--db', ':memory:'], {
    env: { ...process.env, NODE_PATH: path.resolve(__dirname, '../../node_modules') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const ready = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened: ${out}`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      const apiKey = /API key:\s+(\S+)/.exec(out)?.[1];
      if (url && apiKey) resolve({ url, apiKey });
    });
  });
  return {
    ...ready,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

type LocalServer = Pick<ServerProcess, 'url' | 'apiKey'>;

const EXAMPLES = Number(process.env['BENCH_EXAMPLES'] ?? 500);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 8);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const WITH_EVALUATORS = process.env['BENCH_EVALUATORS'] === '1';
const GOAL_RATIO = 1.3;

const log = (s: string) => process.stdout.write(`${s}\n`);
const ms = (x: number) => `${Math.round(x)} ms`;

const promptMessage = (role: 'System' | 'Human', template: string, vars: string[]) => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'prompts', 'chat', `${role}MessagePromptTemplate`],
  kwargs: { prompt: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { template, template_format: 'f-string', input_variables: vars } } },
});
/** Like the demo's support prompt: a system message and the question. */
const MANIFEST = {
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'],
  kwargs: {
    input_variables: ['question'],
    messages: [
      promptMessage('System', 'You are a helpful support agent for a SaaS product. Answer in one or two sentences, and say when you are not sure.', []),
      promptMessage('Human', '{question}', ['question']),
    ],
  },
};
const TOPICS = ['reset my password', 'change my plan', 'export my data', 'invite a teammate', 'update billing details', 'enable two-factor sign-in', 'delete my account', 'use the API with pagination'];

const EVALUATORS: EvaluatorSpec[] = WITH_EVALUATORS
  ? [
      { type: 'contains', key: 'contains', output: null, reference: null, lowerIsBetter: false, ignoreCase: true },
      { type: 'similarity', key: 'similarity', output: null, reference: null, lowerIsBetter: false },
    ]
  : [];

async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

/** The server's own time for the model calls: the experiment's payloads, straight to the chat endpoint. */
async function direct(srv: LocalServer, payloads: string[]): Promise<number> {
  const started = performance.now();
  await pool(payloads, CONCURRENCY, async (body) => {
    const res = await fetch(`${srv.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${srv.apiKey}` }, body });
    if (res.status !== 200) throw new Error(`chat call: ${res.status}`);
    await res.json();
  });
  return performance.now() - started;
}

async function experiment(c: LangSmithClient, srv: LocalServer, dataset: { id: string; name: string }, round: number): Promise<{ ms: number; id: string; errored: number; feedback: number }> {
  const started = performance.now();
  const out = await runExperiment(c, {
    dataset,
    experimentName: `bench-${round}-${Date.now()}`,
    prompt: { name: 'support-answer', commit: null, manifest: MANIFEST },
    mapping: {},
    model: { baseUrl: `${srv.url}/v1`, apiKey: srv.apiKey, model: 'local-echo' },
    evaluators: EVALUATORS,
    concurrency: CONCURRENCY,
  });
  return { ms: performance.now() - started, id: out.experiment.id, errored: out.errored, feedback: out.feedback };
}

/** Root runs of the experiment per example, counted on the server (v1 query of root runs, by pages). */
async function traced(c: LangSmithClient, experimentId: string, exampleIds: string[]): Promise<{ roots: number; lost: number; duplicated: number }> {
  const perExample = new Map<string, number>();
  let roots = 0;
  for await (const r of c.runs.query({ projectId: experimentId, isRoot: true, select: ['id', 'reference_example_id'] })) {
    roots++;
    const ex = r.reference_example_id ?? '';
    perExample.set(ex, (perExample.get(ex) ?? 0) + 1);
  }
  const lost = exampleIds.filter((id) => !perExample.has(id)).length;
  const duplicated = [...perExample.values()].reduce((n, k) => n + Math.max(0, k - 1), 0);
  return { roots, lost, duplicated };
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    const text = fs.readFileSync(__filename, 'utf8');
    log(text.slice(text.indexOf('/**') + 3, text.indexOf('*/')).replace(/^ ?\* ?/gm, '').trim());
    return;
  }
  const srv = await startServerProcess();
  try {
    const c = new LangSmithClient({ apiUrl: srv.url, apiKey: srv.apiKey });
    const ds = await c.datasets.create({ name: 'bench-support-qa' });
    const examples = Array.from({ length: EXAMPLES }, (_, i) => {
      const topic = TOPICS[i % TOPICS.length]!;
      return { inputs: { question: `How do I ${topic}? (ticket ${i + 1})` }, outputs: { answer: `To ${topic}, open Settings and follow the steps under ${topic.split(' ')[0]}.` } };
    });
    const created = await c.examples.create({ datasetId: ds.id, examples });
    const exampleIds = created.example_ids;

    // The exact bodies the experiment's model step sends.
    const template = PromptTemplate.fromManifest(MANIFEST);
    const model = new OpenAIChatModel({ baseUrl: `${srv.url}/v1`, apiKey: srv.apiKey, model: 'local-echo' });
    const payloads = examples.map((e) => JSON.stringify(model.body(toMessages(template.format(e.inputs) as ModelInput), false)));

    log(`experiment run: ${EXAMPLES} examples, concurrency ${CONCURRENCY}, ${EVALUATORS.length} evaluators, ${ROUNDS} rounds, local-echo`);
    // One warm-up of each (JIT, the server's statements), not counted.
    await direct(srv, payloads.slice(0, 50));
    const directMs: number[] = [];
    const experimentMs: number[] = [];
    let allTraced = true;
    for (let round = 1; round <= ROUNDS; round++) {
      const d = await direct(srv, payloads);
      directMs.push(d);
      const e = await experiment(c, srv, { id: ds.id, name: ds.name }, round);
      experimentMs.push(e.ms);
      const t = await traced(c, e.id, exampleIds);
      if (t.lost || t.duplicated || t.roots !== EXAMPLES) allTraced = false;
      log(`  round ${round}: direct ${ms(d)} · experiment ${ms(e.ms)} (×${(e.ms / d).toFixed(2)}) · errored ${e.errored} · feedback ${e.feedback} · root runs ${t.roots}, lost ${t.lost}, duplicated ${t.duplicated}`);
    }
    const bestDirect = Math.min(...directMs);
    const bestExperiment = Math.min(...experimentMs);
    const ratio = bestExperiment / bestDirect;
    log(`best: direct ${ms(bestDirect)} · experiment ${ms(bestExperiment)} · ratio ${ratio.toFixed(2)} (goal ≤ ${GOAL_RATIO}) ${ratio <= GOAL_RATIO ? 'ok' : 'OVER'}`);
    log(`traced: every round ${allTraced ? 'ok' : 'NOT ok'} (0 lost, 0 duplicated, ${EXAMPLES} root runs each)`);
    if (ratio > GOAL_RATIO || !allTraced) process.exitCode = 1;
  } finally {
    await srv.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
