/**
 * One benchmark trial in its own process: `node --import=tsx test/bench/clientWorkloads.ts '<json>'`.
 * Prints one JSON line: {ms, requests, peakMB, check}. Setup (datasets, payloads) happens before the
 * measured section; requests are counted on undici's request channel, memory is the peak RSS (sampled every 5 ms)
 * above the level right before the measured section.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { setImmediate as tick } from 'node:timers/promises';

export type Workload = 'createExamples' | 'readExamples' | 'trace' | 'promptPushPull';
export type Impl = 'ours' | 'official';

export interface TrialArgs {
  impl: Impl;
  workload: Workload;
  url: string;
  apiKey: string;
  /** For readExamples: the dataset to page through. */
  datasetId?: string;
  count: number;
}

export interface TrialResult {
  ms: number;
  requests: number;
  peakMB: number;
  /** Items created, read, traced or pulled, as verified after the measured section. */
  check: number;
  /** CPU time of the client's process (all its threads) during the measured section. */
  cpuMs: number;
}

// Requests are counted where both clients' HTTP goes out: undici publishes every request it creates on this
// channel, for Node's built-in fetch (the official client) and for the undici package (ours) alike.
let requests = 0;
diagnosticsChannel.subscribe('undici:request:create', () => {
  requests++;
});

function payload(i: number): Record<string, unknown> {
  // ~1 KB of JSON each.
  return { id: i, text: `item ${i} `.padEnd(900, 'x'), tags: ['a', 'b', 'c'], n: i * 3.5 };
}

async function measure(body: () => Promise<number>): Promise<TrialResult> {
  (globalThis as { gc?: () => void }).gc?.();
  await tick();
  const base = process.memoryUsage.rss();
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  requests = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const check = await body();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const used = requests;
  clearInterval(sampler);
  // Not getrusage's maxRSS: on Linux it carries the parent's high-water mark across fork+exec.
  peak = Math.max(peak, process.memoryUsage.rss());
  return { ms, requests: used, peakMB: (peak - base) / 1024 / 1024, check, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2]!) as TrialArgs;
  const { LangSmithClient, collect } = await import('../../src/client');
  const ours = new LangSmithClient({ apiUrl: args.url, apiKey: args.apiKey });
  const tag = `${args.impl}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  let result: TrialResult;

  if (args.workload === 'createExamples') {
    const ds = await ours.datasets.create({ name: `bench-create-${tag}` });
    const inputs = Array.from({ length: args.count }, (_, i) => ({ q: payload(i) }));
    const outputs = Array.from({ length: args.count }, (_, i) => ({ a: payload(-i) }));
    if (args.impl === 'official') {
      const { Client } = await import('langsmith');
      const client = new Client({ apiUrl: args.url, apiKey: args.apiKey });
      await client.createExamples({ datasetId: ds.id, inputs: [inputs[0]!], outputs: [outputs[0]!] }); // warm /info
      result = await measure(async () => (await client.createExamples({ datasetId: ds.id, inputs, outputs })).length);
    } else {
      const client = new LangSmithClient({ apiUrl: args.url, apiKey: args.apiKey });
      await client.examples.create({ datasetId: ds.id, examples: [{ inputs: inputs[0], outputs: outputs[0] }] });
      result = await measure(async () => (await client.examples.create({ datasetId: ds.id, examples: inputs.map((q, i) => ({ inputs: q, outputs: outputs[i] })) })).count);
    }
  } else if (args.workload === 'readExamples') {
    if (args.impl === 'official') {
      const { Client } = await import('langsmith');
      const client = new Client({ apiUrl: args.url, apiKey: args.apiKey });
      // Warm, as the other workloads are: the HTTP stack loaded and a connection open before the measured section.
      for await (const ex of client.listExamples({ datasetId: args.datasetId!, limit: 1 })) if (ex.id) break;
      result = await measure(async () => {
        let n = 0;
        for await (const ex of client.listExamples({ datasetId: args.datasetId! })) if (ex.id) n++;
        return n;
      });
    } else {
      const client = new LangSmithClient({ apiUrl: args.url, apiKey: args.apiKey });
      for await (const ex of client.examples.list({ datasetId: args.datasetId!, limit: 1 })) if (ex.id) break;
      result = await measure(async () => {
        let n = 0;
        for await (const ex of client.examples.list({ datasetId: args.datasetId!, ...(process.env['BENCH_PREFETCH'] ? { prefetch: Number(process.env['BENCH_PREFETCH']) } : {}) })) if (ex.id) n++;
        return n;
      });
    }
  } else if (args.workload === 'trace') {
    const projectName = `bench-trace-${tag}`;
    await ours.projects.create({ name: projectName });
    if (args.impl === 'official') {
      const { Client } = await import('langsmith');
      const { RunTree } = await import('langsmith/run_trees');
      const client = new Client({ apiUrl: args.url, apiKey: args.apiKey, manualFlushMode: true, autoBatchTracing: true });
      result = await measure(async () => {
        for (let i = 0; i < args.count; i++) {
          const rt = new RunTree({ name: `run-${i}`, run_type: 'chain', inputs: { i, text: 'hello world' }, project_name: projectName, client });
          await rt.postRun();
          await rt.end({ out: i });
          await rt.patchRun();
        }
        await client.flush();
        return 0;
      });
    } else {
      const client = new LangSmithClient({ apiUrl: args.url, apiKey: args.apiKey, tracing: { manualFlush: true, projectName } });
      result = await measure(async () => {
        for (let i = 0; i < args.count; i++) {
          const rt = client.tracing.startRun({ name: `run-${i}`, runType: 'chain', inputs: { i, text: 'hello world' } }).post();
          rt.end({ outputs: { out: i } }).patch();
        }
        await client.tracing.flush();
        return 0;
      });
    }
    const project = await ours.projects.read({ projectName });
    let n = 0;
    for await (const run of ours.runs.query({ projectId: project.id, select: ['id', 'end_time'] })) if (run.end_time) n++;
    result.check = n;
    void collect;
  } else {
    const name = `bench-prompt-${tag}`;
    const manifest = (i: number) => ({
      lc: 1,
      type: 'constructor',
      id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'],
      kwargs: { input_variables: ['x'], template_format: 'f-string', template: `Version ${i}: {x}` },
    });
    if (args.impl === 'official') {
      const { Client } = await import('langsmith');
      const client = new Client({ apiUrl: args.url, apiKey: args.apiKey });
      await client.pushPrompt(name, { object: manifest(-1) });
      result = await measure(async () => {
        const hashes: string[] = [];
        for (let i = 0; i < args.count; i++) {
          const url = await client.pushPrompt(name, { object: manifest(i) });
          hashes.push(url.split('?')[0]!.split('/').pop()!);
        }
        pushRequests = requests;
        let n = 0;
        for (const h of hashes) if ((await client.pullPromptCommit(`${name}:${h}`, { skipCache: true })).manifest) n++;
        return n;
      });
    } else {
      const client = new LangSmithClient({ apiUrl: args.url, apiKey: args.apiKey });
      await client.prompts.push(name, { manifest: manifest(-1) });
      result = await measure(async () => {
        const hashes: string[] = [];
        for (let i = 0; i < args.count; i++) {
          const url = await client.prompts.push(name, { manifest: manifest(i) });
          hashes.push(url.split('?')[0]!.split('/').pop()!);
        }
        pushRequests = requests;
        let n = 0;
        for (const h of hashes) if ((await client.prompts.pull(`${name}:${h}`)).manifest) n++;
        return n;
      });
    }
    (result as TrialResult & { pushRequests?: number }).pushRequests = pushRequests;
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

let pushRequests = 0;

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
