// Running a prompt over a dataset: an experiment as LangSmith records one. A project tied to the dataset
// (`reference_dataset_id`, the prompt, its commit, the model and the evaluators in its metadata); for each example
// a trace whose root run names the example (`reference_example_id`) and holds `{output: text}`, with the prompt,
// the model call and the parser as its children; each evaluator's result as feedback (source `model`) on the root
// run. Examples run N at a time; a failed one is an errored run and the others go on; the signal stops the rest.
// Plain Node: no vscode import.
import {
  DEFAULT_RECURSION_LIMIT,
  LangSmithConflictError,
  LangSmithValidationError,
  OpenAIChatModel,
  PromptTemplate,
  StringOutputParser,
  type LangSmithClient,
  type Message,
  type RunContext,
  type RunnableConfig,
  type Runnable,
} from '../client';
import { evaluate, valueAt, type JudgeCall } from './evaluators';
import type { EvaluatorSpec, RunExperimentOptions, RunOutcome, RunProgress, UnmappedVariable } from './types';

export const MIN_CONCURRENCY = 1;
export const MAX_CONCURRENCY = 32;
/** Model retries on 429 and 5xx (with backoff, honouring Retry-After) before an example counts as failed. */
export const MODEL_MAX_RETRIES = 4;
/** Per model call (each attempt). */
export const MODEL_TIMEOUT_MS = 120_000;

/** The error a run stopped by the signal records. */
export const CANCELLED_RUN_ERROR = 'Cancelled: the experiment was stopped before this example finished.';

/** `<prompt>-<yyyymmdd-hhmmss>` (local time): the prompt's name without owner or commit. */
export function experimentName(promptName: string, date: Date): string {
  const base = promptName.split(':')[0]!.split('/').pop()!.trim() || 'prompt';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${base}-${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/** The fields of example inputs to choose from: every key, and the dotted paths into nested objects (3 levels). */
function fieldsOf(samples: Record<string, unknown>[]): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, prefix: string, depth: number) => {
    if (!v || typeof v !== 'object' || Array.isArray(v) || depth > 3) return;
    for (const [k, inner] of Object.entries(v)) {
      const path = prefix ? `${prefix}.${k}` : k;
      out.add(path);
      walk(inner, path, depth + 1);
    }
  };
  for (const s of samples) walk(s, '', 1);
  // In name order: the examples read come in no fixed order, and the choice should not change between two runs.
  return [...out].sort((a, b) => a.localeCompare(b));
}

/**
 * The prompt's variables that no example input field fills: the field is the mapping's (a dotted path) or the
 * variable's own name, and it counts as there when any sample has it. Checked before any call, so the host can ask
 * for a mapping. An optional placeholder is not a variable that must be filled.
 */
export function unmappedVariables(
  manifest: unknown,
  sampleInputs: Record<string, unknown> | Record<string, unknown>[],
  mapping: Record<string, string>,
): UnmappedVariable[] {
  const samples = Array.isArray(sampleInputs) ? sampleInputs : [sampleInputs];
  const variables = PromptTemplate.fromManifest(manifest).inputVariables;
  const fields = fieldsOf(samples);
  return variables
    .filter((v) => !samples.some((s) => valueAt(s, mapping[v] || v) !== undefined))
    .map((variable) => ({ variable, fields }));
}

/** The prompt's values for one example: each variable from its mapped field (or the field of its name). */
export function promptValues(variables: string[], inputs: Record<string, unknown>, mapping: Record<string, string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const v of variables) {
    const value = valueAt(inputs, mapping[v] || v);
    if (value !== undefined) values[v] = value;
  }
  return values;
}

interface ExampleToRun {
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
}

function errorText(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

/** The judge: the experiment's model endpoint, the evaluator's model or the experiment's, temperature 0. */
function judgeFor(options: RunExperimentOptions): JudgeCall {
  const models = new Map<string, OpenAIChatModel>();
  const m = options.model;
  return async (messages, o) => {
    const name = o.model ?? m.model;
    let model = models.get(name);
    if (!model) {
      model = new OpenAIChatModel({ baseUrl: m.baseUrl, apiKey: m.apiKey, model: name, temperature: 0, fetch: m.fetch, maxRetries: MODEL_MAX_RETRIES, timeoutMs: MODEL_TIMEOUT_MS });
      models.set(name, model);
    }
    const answer = await model.invoke(messages as Message[], { signal: o.signal });
    return answer.content;
  };
}

function checkOptions(o: RunExperimentOptions): void {
  if (!Number.isInteger(o.concurrency) || o.concurrency < MIN_CONCURRENCY || o.concurrency > MAX_CONCURRENCY) {
    throw new LangSmithValidationError(`Concurrency must be a whole number from ${MIN_CONCURRENCY} to ${MAX_CONCURRENCY}, got ${String(o.concurrency)}`);
  }
  if (!o.experimentName?.trim()) throw new LangSmithValidationError('An experiment needs a name');
  const keys = new Set<string>();
  for (const e of o.evaluators) {
    if (keys.has(e.key)) throw new LangSmithValidationError(`Two evaluators write the feedback key “${e.key}”: give one of them another key`);
    keys.add(e.key);
  }
}

/** How many names `createUniquely` tries: the name, then the name with -2, -3, … */
const NAME_TRIES = 20;

/**
 * Creates the experiment under its name, or, when a project of that name exists (two runs started in the same
 * second), under the name with -2, -3, … appended: an experiment is always new.
 */
async function createUniquely<T>(name: string, create: (name: string) => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await create(n === 1 ? name : `${name}-${n}`);
    } catch (e) {
      if (!(e instanceof LangSmithConflictError) || n >= NAME_TRIES) throw e;
    }
  }
}

/**
 * Runs the prompt over the dataset's examples (of a split, at a version) as a new experiment, scores each run with
 * the evaluators, and answers the counts. Every run is traced exactly once: the tracer is flushed before the answer.
 * Cancelled by `options.signal`: examples not started are not run, those in flight end as errored runs; the answer
 * then says `cancelled` (the experiment keeps what was traced). Bad options, an unreadable manifest and unmapped
 * variables are errors before anything is created.
 */
export async function runExperiment(client: LangSmithClient, options: RunExperimentOptions): Promise<RunOutcome> {
  checkOptions(options);
  const signal = options.signal;
  const template = PromptTemplate.fromManifest(options.prompt.manifest);
  const variables = template.inputVariables;
  const model = new OpenAIChatModel({
    baseUrl: options.model.baseUrl,
    apiKey: options.model.apiKey,
    model: options.model.model,
    temperature: options.model.temperature ?? undefined,
    maxTokens: options.model.maxTokens ?? undefined,
    fetch: options.model.fetch,
    maxRetries: MODEL_MAX_RETRIES,
    timeoutMs: MODEL_TIMEOUT_MS,
  });
  const chain = template.pipe(model).pipe(new StringOutputParser());

  // The examples, then the check of the mapping, before anything is created.
  const examples: ExampleToRun[] = [];
  for await (const e of client.examples.list({
    datasetId: options.dataset.id,
    ...(options.split ? { splits: [options.split] } : {}),
    ...(options.asOf ? { asOf: options.asOf } : {}),
    select: ['id', 'dataset_id', 'inputs', 'outputs', 'metadata'],
    signal,
  })) {
    examples.push({ id: e.id, inputs: e.inputs, outputs: e.outputs ?? null });
  }
  if (!examples.length) {
    throw new LangSmithValidationError(`The dataset ${options.dataset.name} has no examples${options.split ? ` in split ${options.split}` : ''}${options.asOf ? ` at ${options.asOf}` : ''}`);
  }
  {
    const unmapped = unmappedVariables(options.prompt.manifest, examples.slice(0, 20).map((e) => e.inputs), options.mapping);
    if (unmapped.length) {
      const names = unmapped.map((u) => u.variable).join(', ');
      throw new LangSmithValidationError(`No dataset input field for the prompt's variable${unmapped.length > 1 ? 's' : ''} ${names}: map ${unmapped.length > 1 ? 'them' : 'it'} to one of ${unmapped[0]!.fields.join(', ') || '(no fields)'}`);
    }
  }
  if (signal?.aborted) throw signal.reason;

  const metadata: Record<string, unknown> = {
    prompt: options.prompt.name,
    prompt_commit: options.prompt.commit,
    model: options.model.model,
    evaluators: options.evaluators.map((e) => e.key),
    ...(options.evaluators.some((e) => e.lowerIsBetter) ? { lower_is_better: options.evaluators.filter((e) => e.lowerIsBetter).map((e) => e.key) } : {}),
    ...(options.split ? { dataset_split: options.split } : {}),
    ...(options.asOf ? { dataset_version: options.asOf } : {}),
    concurrency: options.concurrency,
  };
  const project = await createUniquely(options.experimentName, (name) =>
    client.projects.create({
      name,
      referenceDatasetId: options.dataset.id,
      ...(options.description ? { description: options.description } : {}),
      metadata,
      signal,
    }),
  );
  const url = await client.links.project({ projectId: project.id, signal }).catch(() => null);

  // Sent in the background as runs end; a failed send keeps its runs queued for the final flush.
  const tracer = client.createTracer({ projectName: project.name, onError: () => undefined });
  const judge = options.evaluators.some((e) => e.type === 'llm_judge') ? judgeFor(options) : undefined;
  const progress: RunProgress = { total: examples.length, done: 0, errored: 0, feedback: 0 };
  const report = () => {
    try {
      options.onProgress?.({ ...progress });
    } catch {
      /* a listener's failure is not the experiment's */
    }
  };
  report();

  /** A failure writing to LangSmith (feedback): stops new examples, and is thrown once those in flight end. */
  let fatal: { error: unknown } | undefined;

  const runOne = async (example: ExampleToRun): Promise<void> => {
    const root = tracer.startRun({
      name: options.prompt.name,
      runType: 'chain',
      inputs: example.inputs,
      referenceExampleId: example.id,
      metadata: { prompt: options.prompt.name, prompt_commit: options.prompt.commit, ls_model_name: options.model.model },
    });
    root.post();
    const config: RunnableConfig = { tracer, ...(signal ? { signal } : {}) };
    const ctx: RunContext = { config, depth: 1, limit: DEFAULT_RECURSION_LIMIT, run: root, ...(signal ? { signal } : {}) };
    let text: string;
    try {
      // The steps of the chain as children of the example's root run (which stands for the chain itself).
      let value: unknown = promptValues(variables, example.inputs, options.mapping);
      for (const step of chain.steps as readonly Runnable<unknown, unknown>[]) value = await step.invokeWithin(value, ctx);
      text = String(value);
    } catch (e) {
      root.end({ error: signal?.aborted ? CANCELLED_RUN_ERROR : errorText(e) });
      root.patch();
      progress.done++;
      progress.errored++;
      report();
      return;
    }
    const outputs = { output: text };
    root.end({ outputs });
    root.patch();
    for (const spec of options.evaluators) {
      if (signal?.aborted) break;
      let res;
      try {
        res = await evaluate(spec, { inputs: example.inputs, outputs, referenceOutputs: example.outputs }, { ...(judge ? { judge } : {}), ...(signal ? { signal } : {}) });
      } catch (e) {
        if (signal?.aborted) break;
        res = { key: spec.key, score: null, value: null, comment: `The evaluator failed: ${errorText(e)}` };
      }
      await client.feedback.create({
        runId: root.id,
        key: res.key,
        score: res.score,
        ...(res.value !== null ? { value: res.value } : {}),
        ...(res.comment !== null ? { comment: res.comment } : {}),
        feedbackSourceType: 'model',
        sourceInfo: { evaluator: spec.type, experiment: project.name },
      });
      progress.feedback++;
    }
    progress.done++;
    report();
  };

  let next = 0;
  const lane = async () => {
    while (next < examples.length && !signal?.aborted && !fatal) {
      const example = examples[next++]!;
      try {
        await runOne(example);
      } catch (e) {
        fatal ??= { error: e };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, examples.length) }, lane));

  // Every run queued goes out before the answer (a failed send keeps them queued: one more try).
  try {
    await tracer.flush();
  } catch {
    await tracer.flush();
  }
  if (tracer.pendingCount > 0) throw new Error(`${tracer.pendingCount} runs of the experiment could not be sent`);
  const cancelled = !!signal?.aborted;
  try {
    await client.projects.update(project.id, { endTime: new Date() });
  } catch {
    /* the end time is a nicety; the runs are what counts */
  }
  if (fatal) throw fatal.error;
  return {
    experiment: { id: project.id, name: project.name, url },
    total: examples.length,
    done: progress.done,
    errored: progress.errored,
    feedback: progress.feedback,
    cancelled,
  };
}

export type { EvaluatorSpec };
