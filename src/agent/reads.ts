// The reading tools: prompts, projects, runs, traces, threads, datasets, examples, queues, experiments.
import { z } from 'zod';
import { collect, type LangSmithClient, type TraceRun } from '../client';
import { fromManifest } from '../promptFile';
import { cut, json, seconds, UUID } from './text';
import { defineTool, READ_HINTS, ToolInputError, type AgentTool } from './tool';

const limit = (dflt: number, max = 100) => z.number().int().min(1).max(max).default(dflt).describe(`How many at most (default ${dflt}, at most ${max}).`);
const time = z.iso.datetime({ offset: true }).describe('An ISO 8601 time, e.g. 2026-05-01T00:00:00Z.');
const projectRef = z.string().min(1).max(300).describe('The tracing project: its name or its id.');
const datasetRef = z.string().min(1).max(300).describe('The dataset: its name or its id.');
const uuid = (what: string) => z.string().regex(UUID, `${what} must be a UUID`).describe(`The ${what} (a UUID).`);

export function projectOpts(ref: string): { projectId: string } | { projectName: string } {
  return UUID.test(ref) ? { projectId: ref } : { projectName: ref };
}
export function datasetOpts(ref: string): { datasetId: string } | { datasetName: string } {
  return UUID.test(ref) ? { datasetId: ref } : { datasetName: ref };
}

export async function projectIdOf(client: LangSmithClient, ref: string, signal?: AbortSignal): Promise<string> {
  return UUID.test(ref) ? ref : (await client.projects.read({ projectName: ref, signal })).id;
}

const tokens = (n: number | null | undefined) => (n ? ` · ${n} tokens` : '');

export const searchPrompts = defineTool({
  name: 'search_prompts',
  title: 'Search prompts',
  description:
    'Lists the prompts of the LangSmith workspace (newest change first), optionally those matching a search text. ' +
    'Each line: the identifier to pass to get_prompt, description, tags, commit count, last change and a link.',
  kind: 'read',
  annotations: READ_HINTS,
  input: z.object({ query: z.string().max(200).optional().describe('Text the prompt’s name, description or tags contain.'), limit: limit(20) }),
  async run(i, { client, signal }) {
    const repos = await collect(client.prompts.list({ query: i.query || undefined, limit: i.limit, signal }));
    if (!repos.length) return i.query ? `No prompt matches “${i.query}”.` : 'The workspace has no prompts.';
    const lines = [`${repos.length} prompt(s):`];
    for (const r of repos) {
      const url = await client.links.prompt(r.full_name ?? r.repo_handle, { signal }).catch(() => '');
      lines.push(
        `- ${r.repo_handle}${r.owner ? ` (owner ${r.owner})` : ''}: ${cut(r.description ?? '', 160) || 'no description'}` +
          `${r.tags?.length ? ` · tags ${r.tags.join(', ')}` : ''} · ${r.num_commits ?? 0} commits · updated ${r.updated_at ?? '?'}${url ? ` · ${url}` : ''}`,
      );
    }
    return lines.join('\n');
  },
});

export const getPrompt = defineTool({
  name: 'get_prompt',
  title: 'Get a prompt',
  description:
    'Reads one version of a prompt: its messages (role and template), template format, input variables, model and settings, ' +
    'the commit hash and the tags on the prompt’s commits. Give `name` (latest), `name:commit-hash` or `name:tag`.',
  kind: 'read',
  annotations: READ_HINTS,
  input: z.object({ identifier: z.string().min(1).max(300).describe('`name`, `owner/name`, optionally with `:commit` or `:tag`.') }),
  async run(i, { client, signal }) {
    const pulled = await client.prompts.pull(i.identifier, { includeModel: true, signal });
    const name = i.identifier.split(':')[0]!;
    const own = !name.includes('/') || name.startsWith('-/');
    const [tags, url] = await Promise.all([
      own ? client.prompts.listTags(name, { signal }).catch(() => []) : Promise.resolve([]),
      client.links.prompt(`${name}:${pulled.commit_hash}`, { signal }).catch(() => ''),
    ]);
    const lines = [`Prompt ${pulled.owner && pulled.owner !== '-' ? `${pulled.owner}/` : ''}${pulled.repo} at commit ${pulled.commit_hash}${url ? ` · ${url}` : ''}`];
    if (tags.length) lines.push(`Tags: ${tags.map((t) => `${t.tag_name} → ${t.commit_hash?.slice(0, 8) ?? t.commit_id}`).join(', ')}`);
    let file;
    try {
      file = fromManifest(pulled.manifest);
    } catch {
      file = undefined;
    }
    if (!file) {
      lines.push('The manifest is not a prompt template this tool reads; raw manifest:', json(pulled.manifest, 20_000));
      return lines.join('\n');
    }
    lines.push(`Template format: ${file.templateFormat}`);
    if (file.inputVariables?.length) lines.push(`Input variables: ${file.inputVariables.join(', ')}`);
    if (file.body.kind === 'string') lines.push('Template:', file.body.template);
    else
      file.body.messages.forEach((m, n) => {
        if (m.kind === 'placeholder') lines.push(`Message ${n + 1}: placeholder {${m.name}}${m.optional ? ' (optional)' : ''}`);
        else lines.push(`Message ${n + 1} (${m.role}):`, typeof m.template === 'string' ? m.template : json(m.template, 5000));
      });
    if (file.model) lines.push(`Model: ${file.model.id.join('.')} ${json(file.model.settings, 1000)}`);
    return lines.join('\n');
  },
});

export const listProjects = defineTool({
  name: 'list_projects',
  title: 'List tracing projects',
  description: 'Lists the tracing projects of the workspace (name, id, description, link); optionally those whose name contains a text.',
  kind: 'read',
  annotations: READ_HINTS,
  input: z.object({ nameContains: z.string().max(200).optional().describe('Text the project’s name contains.'), limit: limit(50) }),
  async run(i, { client, signal }) {
    const projects = await collect(client.projects.list({ nameContains: i.nameContains || undefined, limit: i.limit, signal }));
    if (!projects.length) return 'No tracing project found.';
    const lines = [`${projects.length} project(s):`];
    for (const p of projects) {
      const url = await client.links.project({ projectId: p.id, signal }).catch(() => '');
      lines.push(`- ${p.name} (id ${p.id})${p.description ? `: ${cut(p.description, 160)}` : ''}${p.reference_dataset_id ? ' · experiment' : ''}${url ? ` · ${url}` : ''}`);
    }
    return lines.join('\n');
  },
});

function runLine(r: { id: string; name?: string | null; run_type?: string | null; status?: string | null; start_time?: string | number | null; end_time?: string | number | null; total_tokens?: number | null; error?: string | null; trace_id?: string | null }): string {
  const err = r.error ? ` · error: ${cut(r.error, 200)}` : '';
  const took = seconds(r.start_time, r.end_time);
  return `- ${r.name ?? '?'} [${r.run_type ?? '?'}] ${r.error ? 'error' : (r.status ?? '')} · started ${r.start_time ? new Date(r.start_time).toISOString() : '?'}${took ? ` · ${took}` : ''}${tokens(r.total_tokens)} · run ${r.id}${r.trace_id && r.trace_id !== r.id ? ` · trace ${r.trace_id}` : ''}${err}`;
}

export const queryRuns = defineTool({
  name: 'query_runs',
  title: 'Query runs',
  description:
    'Finds runs of a tracing project, newest first: root runs (traces) by default, optionally only those that errored, in a time range, ' +
    'of a run type, or matching a LangSmith filter expression such as `and(eq(name, "ChatOpenAI"), gt(latency, 5))` or `search("timeout")`. ' +
    'Each line: name, type, status, start, latency, tokens, run id, trace id and the error. Read one with get_trace.',
  kind: 'read',
  annotations: READ_HINTS,
  input: z.object({
    project: projectRef,
    errorsOnly: z.boolean().default(false).describe('Only runs that errored.'),
    rootOnly: z.boolean().default(true).describe('Only root runs (one per trace); false for every run.'),
    filter: z.string().max(2000).optional().describe('A LangSmith filter expression over the runs.'),
    traceFilter: z.string().max(2000).optional().describe('A filter expression over each run’s root run.'),
    runType: z.enum(['chain', 'llm', 'tool', 'retriever', 'prompt', 'parser', 'embedding']).optional(),
    since: time.optional(),
    until: time.optional(),
    limit: limit(20),
  }),
  async run(i, { client, signal }) {
    const where = projectOpts(i.project);
    const runs = await collect(
      client.runs.query({
        ...where,
        error: i.errorsOnly ? true : undefined,
        isRoot: i.rootOnly ? true : undefined,
        filter: i.filter || undefined,
        traceFilter: i.traceFilter || undefined,
        runType: i.runType,
        startTime: i.since,
        endTime: i.until,
        limit: i.limit,
        pageSize: Math.min(i.limit, 100),
        select: ['id', 'name', 'run_type', 'status', 'start_time', 'end_time', 'total_tokens', 'error', 'trace_id'],
        signal,
      }),
    );
    const url = await client.links.project({ ...where, signal }).catch(() => '');
    const what = `${i.errorsOnly ? 'errored ' : ''}${i.rootOnly ? 'root ' : ''}run(s)`;
    if (!runs.length) return `No ${what} in project ${i.project} for this query.${url ? ` Project: ${url}` : ''}`;
    return [`${runs.length} ${what} in project ${i.project}${url ? ` (${url})` : ''}, newest first:`, ...runs.map(runLine)].join('\n');
  },
});

function depthMap(runs: TraceRun[]): Map<string, number> {
  const depth = new Map<string, number>();
  for (const r of runs) depth.set(r.id, r.parent_run_id ? (depth.get(r.parent_run_id) ?? 0) + 1 : 0);
  return depth;
}

export const getTrace = defineTool({
  name: 'get_trace',
  title: 'Get a trace',
  description:
    'Reads a whole trace as an indented tree, one line per run: name, type, status, latency, tokens, run id and the error preview; ' +
    'with totals first. Give `runIds` (up to 5 runs of the trace, e.g. the root or the one that failed) to also get their inputs and outputs. ' +
    'A large trace comes in pages: ask for the next with `page`.',
  kind: 'read',
  annotations: READ_HINTS,
  input: z.object({
    traceId: uuid('trace id'),
    project: projectRef.optional().describe('The trace’s project (name or id): saves a request when known.'),
    runIds: z.array(z.string().regex(UUID, 'each run id must be a UUID')).max(5).default([]).describe('Runs whose inputs and outputs to include.'),
  }),
  async run(i, { client, signal }) {
    const projectId = i.project ? await projectIdOf(client, i.project, signal) : undefined;
    const { runs } = await client.traces.runs(i.traceId, { projectId, signal });
    const root = runs.find((r) => !r.parent_run_id) ?? runs[0]!;
    const errored = runs.filter((r) => r.error_preview || r.status === 'error');
    const total = runs.reduce((n, r) => n + (r.parent_run_id ? 0 : (r.total_tokens ?? 0)), 0);
    const url = root.session_id ? await client.links.project({ projectId: root.session_id, signal }).catch(() => '') : '';
    const lines = [
      `Trace ${i.traceId}: ${root.name ?? '?'} · ${runs.length} runs · ${seconds(root.start_time, root.end_time) || 'running'}${tokens(total)} · ${errored.length} errored run(s)` +
        `${root.session_id ? ` · project ${root.session_id}` : ''}${url ? ` · ${url}` : ''}`,
    ];
    const inTrace = new Set(runs.map((r) => r.id));
    const stranger = i.runIds.find((id) => !inTrace.has(id));
    if (stranger) throw new ToolInputError(`Run ${stranger} is not part of trace ${i.traceId}: give runIds from its tree.`);
    for (const id of i.runIds) {
      const r = await client.runs.read(id, { projectId: root.session_id ?? undefined, startTime: runs.find((x) => x.id === id)?.start_time ?? undefined, signal });
      lines.push(`Run ${r.id} (${r.name ?? '?'}):`, `  inputs: ${json(r.inputs, 4000)}`, `  outputs: ${json(r.outputs, 4000)}`);
      if (r.error) lines.push(`  error: ${cut(r.error, 2000)}`);
    }
    const depth = depthMap(runs);
    if (errored.length) {
      lines.push(`Errored runs${errored.length > 20 ? ' (the first 20)' : ''}:`);
      for (const r of errored.slice(0, 20)) lines.push(`- ${r.name ?? '?'} [${r.run_type ?? '?'}] · ${r.id} · depth ${depth.get(r.id) ?? 0}${r.error_preview ? ` · ${cut(r.error_preview, 150)}` : ''}`);
    }
    lines.push('Tree:');
    for (const r of runs) {
      const took = seconds(r.start_time, r.end_time);
      const err = r.error_preview ? ` · error: ${cut(r.error_preview, 150)}` : '';
      lines.push(`${'  '.repeat(depth.get(r.id) ?? 0)}- ${r.name ?? '?'} [${r.run_type ?? '?'}] ${r.status ?? ''}${took ? ` ${took}` : ''}${tokens(r.total_tokens)} · ${r.id}${err}`);
    }
    return lines.join('\n');
  },
});

export const getThread = defineTool({
  name: 'get_thread',
  title: 'Get a thread',
  description: 'Reads a conversation (thread) of a project: its figures and its turns in order (status, latency, tokens, trace id, error). Read a turn with get_trace.',
  kind: 'read',
  annotations: READ_HINTS,
  input: z.object({ threadId: z.string().min(1).max(300).describe('The thread id (metadata thread_id, session_id or conversation_id).'), project: projectRef, limit: limit(50, 200) }),
  async run(i, { client, signal }) {
    const projectId = await projectIdOf(client, i.project, signal);
    const [stats, turns] = await Promise.all([
      client.threads.stats(i.threadId, { projectId, signal }),
      client.threads.turns(i.threadId, { projectId, limit: i.limit, signal }),
    ]);
    if (!turns.length) return `Thread ${i.threadId} has no turns in project ${i.project}.`;
    const lines = [
      `Thread ${i.threadId}: ${stats.turns} turn(s), ${stats.errored_turns} errored · latency p50 ${stats.latency_p50 ?? '?'}s${tokens(stats.total_tokens)} · from ${stats.first_start_time ?? '?'} to ${stats.last_end_time ?? '?'}`,
    ];
    turns.forEach((t, n) => lines.push(`${n + 1}. ${t.name ?? '?'} ${t.status} · ${t.start_time ?? '?'} · ${t.latency ?? '?'}s${tokens(t.total_tokens)} · trace ${t.trace_id}${t.error_preview ? ` · error: ${cut(t.error_preview, 150)}` : ''}`));
    return lines.join('\n');
  },
});

export const listDatasets = defineTool({
  name: 'list_datasets',
  title: 'List datasets',
  description: 'Lists the datasets of the workspace (name, id, type, example count, description, link); optionally those whose name contains a text.',
  kind: 'read',
  annotations: READ_HINTS,
  input: z.object({ nameContains: z.string().max(200).optional(), limit: limit(50) }),
  async run(i, { client, signal }) {
    const all = await collect(client.datasets.list({ nameContains: i.nameContains || undefined, limit: i.limit, signal }));
    if (!all.length) return 'No dataset found.';
    const lines = [`${all.length} dataset(s):`];
    for (const d of all) {
      const url = await client.links.dataset({ datasetId: d.id, signal }).catch(() => '');
      lines.push(`- ${d.name} (id ${d.id}) · ${d.data_type ?? 'kv'} · ${d.example_count ?? '?'} examples${d.description ? ` · ${cut(d.description, 160)}` : ''}${url ? ` · ${url}` : ''}`);
    }
    return lines.join('\n');
  },
});

export const listExamples = defineTool({
  name: 'list_examples',
  title: 'List examples',
  description: 'Lists examples of a dataset with their inputs, reference outputs, metadata and split; optionally one split, from an offset.',
  kind: 'read',
  annotations: READ_HINTS,
  input: z.object({ dataset: datasetRef, split: z.string().max(100).optional(), offset: z.number().int().min(0).default(0), limit: limit(20) }),
  async run(i, { client, signal }) {
    const examples = await collect(client.examples.list({ ...datasetOpts(i.dataset), splits: i.split ? [i.split] : undefined, offset: i.offset, limit: i.limit, inlineS3Urls: false, signal }));
    if (!examples.length) return `No examples in dataset ${i.dataset}${i.split ? ` split ${i.split}` : ''}${i.offset ? ` from offset ${i.offset}` : ''}.`;
    const lines = [`${examples.length} example(s) of ${i.dataset} from offset ${i.offset}:`];
    for (const e of examples) {
      lines.push(`- ${e.id}${e.source_run_id ? ` (from run ${e.source_run_id})` : ''}`, `  inputs: ${json(e.inputs, 1500)}`, `  outputs: ${json(e.outputs, 1500)}`);
      if (e.metadata && Object.keys(e.metadata).length) lines.push(`  metadata: ${json(e.metadata, 500)}`);
    }
    return lines.join('\n');
  },
});

export const listAnnotationQueues = defineTool({
  name: 'list_annotation_queues',
  title: 'List annotation queues',
  description: 'Lists the annotation (review) queues of the workspace: name, id, description. add_runs_to_annotation_queue takes the name or id.',
  kind: 'read',
  annotations: READ_HINTS,
  input: z.object({ nameContains: z.string().max(200).optional(), limit: limit(50) }),
  async run(i, { client, signal }) {
    const queues = await collect(client.annotationQueues.list({ nameContains: i.nameContains || undefined, limit: i.limit, signal }));
    if (!queues.length) return 'No annotation queue found.';
    return [`${queues.length} annotation queue(s):`, ...queues.map((q) => `- ${q.name} (id ${q.id})${q.description ? `: ${cut(q.description, 160)}` : ''}`)].join('\n');
  },
});

export const getExperimentResults = defineTool({
  name: 'get_experiment_results',
  title: 'Get experiment results',
  description:
    'The experiments of a dataset with their figures (runs, error rate, latency, tokens, cost, average feedback scores). ' +
    'Give `experimentIds` to also get, per example, each experiment’s output, error and scores.',
  kind: 'read',
  annotations: READ_HINTS,
  input: z.object({
    dataset: datasetRef,
    experimentIds: z.array(z.string().regex(UUID, 'each experiment id must be a UUID')).max(5).default([]),
    limit: limit(20, 200).describe('Examples to show with experimentIds (default 20, at most 200).'),
  }),
  async run(i, { client, signal }) {
    const datasetId = await client.datasets.resolveId({ ...datasetOpts(i.dataset), signal });
    const list = await client.experiments.list({ datasetId, signal });
    const lines = list.length ? [`${list.length} experiment(s) on dataset ${i.dataset}:`] : [`Dataset ${i.dataset} has no experiments.`];
    for (const e of list) {
      const fb = Object.entries(e.feedback).map(([k, v]) => `${k} ${v.avg === null ? '?' : v.avg.toFixed(2)} (n ${v.n})`).join(', ');
      lines.push(
        `- ${e.name} (id ${e.id}) · ${e.runCount} runs · errors ${e.errorRate === null ? '?' : `${Math.round(e.errorRate * 100)}%`} · p50 ${e.latencyP50 ?? '?'}s${tokens(e.totalTokens)}` +
          `${e.totalCost ? ` · $${e.totalCost.toFixed(4)}` : ''}${fb ? ` · ${fb}` : ''}`,
      );
    }
    if (i.experimentIds.length) {
      const exampleIds = await client.experiments.exampleIds({ datasetId, limit: i.limit, signal });
      const rows = await client.experiments.rows({ datasetId, experimentIds: i.experimentIds, exampleIds, signal });
      lines.push(`Results for ${exampleIds.length} example(s):`);
      for (const row of rows) {
        lines.push(`- example ${row.exampleId}: inputs ${json(row.example?.inputs, 600)} · reference ${json(row.example?.outputs, 600)}`);
        for (const [exp, run] of Object.entries(row.runs)) {
          if (!run) lines.push(`  ${exp}: no run`);
          else
            lines.push(
              `  ${exp}: run ${run.id}${run.error ? ` · error: ${cut(run.error, 200)}` : ` · output ${json(run.outputs, 600)}`}` +
                `${Object.keys(run.feedback).length ? ` · scores ${Object.entries(run.feedback).map(([k, s]) => `${k}=${s.score ?? s.value ?? '?'}`).join(', ')}` : ''}`,
            );
        }
      }
    }
    return lines.join('\n');
  },
});

export const READS: AgentTool[] = [searchPrompts, getPrompt, listProjects, queryRuns, getTrace, getThread, listDatasets, listExamples, listAnnotationQueues, getExperimentResults];
export { ToolInputError };
