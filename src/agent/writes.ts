// The writing tools. Each has a prepare() that reads what it needs and says exactly what the call would change
// (the prompt diff against its latest version, the examples to add, the runs and the queue), and a run() that
// makes the change. Another workspace's prompt is refused with the spec's tenant message before anything is sent.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { collect, type ExampleCreate, type LangSmithClient } from '../client';
import { changesBetween, firstError, parsePromptText, pushPromptFile, readRemote, resolveTarget, setCommitTag, tagNameProblem, type PromptFile } from '../promptFile';
import { TEMPLATE_FORMATS } from '../promptFile';
import { datasetOpts } from './reads';
import { cut, json, UUID } from './text';
import { defineTool, ToolInputError, writeHints, type AgentTool, type ToolContext } from './tool';

const runIdList = (max: number) => z.array(z.string().regex(UUID, 'each run id must be a UUID')).min(1).max(max);

async function queueOf(client: LangSmithClient, ref: string, signal?: AbortSignal): Promise<{ id: string; name: string }> {
  if (UUID.test(ref)) {
    const q = await client.annotationQueues.read(ref, { signal });
    return { id: q.id, name: q.name };
  }
  const found = (await collect(client.annotationQueues.list({ name: ref, limit: 2, signal }))).filter((q) => q.name === ref);
  if (!found.length) throw new ToolInputError(`No annotation queue is named “${ref}”. list_annotation_queues lists them.`);
  return { id: found[0]!.id, name: found[0]!.name };
}

export const addRunsToAnnotationQueue = defineTool({
  name: 'add_runs_to_annotation_queue',
  title: 'Add runs to an annotation queue',
  description: 'Adds runs (by run id) to an annotation queue (by name or id) for people to review. A run already in the queue is not added twice.',
  kind: 'write',
  annotations: writeHints({ idempotent: true }),
  input: z.object({ queue: z.string().min(1).max(300).describe('The queue’s name or id.'), runIds: runIdList(100).describe('The runs to add (UUIDs).') }),
  async prepare(i, { client, signal }) {
    const q = await queueOf(client, i.queue, signal);
    return [`Add ${i.runIds.length} run(s) to annotation queue “${q.name}” (id ${q.id}):`, ...i.runIds.map((id) => `- run ${id}`)].join('\n');
  },
  async run(i, { client, signal, changed }) {
    const q = await queueOf(client, i.queue, signal);
    await client.annotationQueues.addRuns(q.id, i.runIds, { signal });
    const size = await client.annotationQueues.size(q.id, { signal }).catch(() => undefined);
    changed?.({ kind: 'queue', queueId: q.id, items: true, size });
    return `Added ${i.runIds.length} run(s) to annotation queue “${q.name}” (id ${q.id})${size !== undefined ? `; it now has ${size} run(s) to review` : ''}: ${i.runIds.join(', ')}`;
  },
});

export const addFeedback = defineTool({
  name: 'add_feedback',
  title: 'Add feedback to a run',
  description: 'Records feedback on a run: a key (e.g. "correctness") with a score (number or true/false) and/or a value, a comment and a correction.',
  kind: 'write',
  annotations: writeHints(),
  input: z
    .object({
      runId: z.string().regex(UUID, 'runId must be a UUID'),
      key: z.string().min(1).max(180).describe('The feedback key, e.g. correctness.'),
      score: z.union([z.number(), z.boolean()]).optional(),
      value: z.union([z.string().max(2000), z.number(), z.boolean()]).optional(),
      comment: z.string().max(5000).optional(),
      correction: z.record(z.string(), z.unknown()).optional().describe('What the output should have been.'),
    })
    .refine((i) => i.score !== undefined || i.value !== undefined || i.comment !== undefined || i.correction !== undefined, { message: 'Give a score, a value, a comment or a correction.' }),
  async prepare(i) {
    const parts = [i.score !== undefined && `score ${i.score}`, i.value !== undefined && `value ${json(i.value)}`, i.comment && `comment “${cut(i.comment, 300)}”`, i.correction && `correction ${json(i.correction, 500)}`].filter(Boolean);
    return `Add feedback “${i.key}” to run ${i.runId}: ${parts.join(', ')}.`;
  },
  async run(i, { client, signal, changed }) {
    const fb = await client.feedback.create({ runId: i.runId, key: i.key, score: i.score, value: i.value, comment: i.comment, correction: i.correction, signal });
    changed?.({ kind: 'feedback', runId: i.runId, key: i.key });
    return `Added feedback “${i.key}” (id ${fb.id}) to run ${i.runId}.`;
  },
});

export const createDataset = defineTool({
  name: 'create_dataset',
  title: 'Create a dataset',
  description: 'Creates an empty dataset (kv: inputs/outputs objects; chat; llm). Add examples with add_examples.',
  kind: 'write',
  annotations: writeHints(),
  input: z.object({ name: z.string().min(1).max(300), description: z.string().max(2000).optional(), dataType: z.enum(['kv', 'chat', 'llm']).default('kv') }),
  async prepare(i) {
    return `Create a ${i.dataType} dataset “${i.name}”${i.description ? ` described as “${cut(i.description, 300)}”` : ''}, with no examples.`;
  },
  async run(i, { client, signal, changed }) {
    const d = await client.datasets.create({ name: i.name, description: i.description, dataType: i.dataType, signal });
    changed?.({ kind: 'dataset' });
    const url = await client.links.dataset({ datasetId: d.id, signal }).catch(() => '');
    return `Created dataset “${d.name}” (id ${d.id})${url ? ` · ${url}` : ''}.`;
  },
});

const exampleInput = z.object({
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.record(z.string(), z.unknown()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  split: z.string().max(100).optional(),
});

function examplesOf(i: { examples?: z.infer<typeof exampleInput>[]; fromRunIds?: string[]; split?: string }): ExampleCreate[] {
  if (i.fromRunIds?.length) return i.fromRunIds.map((id) => ({ sourceRunId: id, useSourceRunIo: true, ...(i.split ? { split: i.split } : {}) }));
  return (i.examples ?? []).map((e) => ({ inputs: e.inputs, outputs: e.outputs ?? null, metadata: e.metadata, split: e.split ?? i.split }));
}

export const addExamples = defineTool({
  name: 'add_examples',
  title: 'Add examples to a dataset',
  description:
    'Adds examples to a dataset (name or id): either given (`examples`: inputs, reference outputs, metadata, split) or taken from runs ' +
    '(`fromRunIds`: each run’s inputs and outputs become an example that remembers its source run).',
  kind: 'write',
  annotations: writeHints(),
  input: z
    .object({
      dataset: z.string().min(1).max(300).describe('The dataset’s name or id.'),
      examples: z.array(exampleInput).min(1).max(100).optional(),
      fromRunIds: runIdList(100).optional(),
      split: z.string().max(100).optional().describe('A split for every example (e.g. test).'),
    })
    .refine((i) => (i.examples ? 1 : 0) + (i.fromRunIds ? 1 : 0) === 1, { message: 'Give either `examples` or `fromRunIds`, not both and not neither.' }),
  async prepare(i, { client, signal }) {
    const id = await client.datasets.resolveId({ ...datasetOpts(i.dataset), signal });
    const lines = [`Add ${(i.examples ?? i.fromRunIds)!.length} example(s) to dataset ${i.dataset} (id ${id}):`];
    if (i.fromRunIds) for (const r of i.fromRunIds) lines.push(`- from run ${r} (its inputs and outputs)${i.split ? ` · split ${i.split}` : ''}`);
    else
      for (const e of i.examples!) {
        const split = e.split ?? i.split;
        lines.push(`- inputs ${json(e.inputs, 1000)} · outputs ${json(e.outputs ?? null, 1000)}${e.metadata ? ` · metadata ${json(e.metadata, 300)}` : ''}${split ? ` · split ${split}` : ''}`);
      }
    return lines.join('\n');
  },
  async run(i, { client, signal, changed }) {
    const created = await client.examples.create({ ...datasetOpts(i.dataset), examples: examplesOf(i), signal });
    // By id the dataset's own row reloads; by name, the list (the id is not read for this).
    changed?.(UUID.test(i.dataset) ? { kind: 'dataset', datasetId: i.dataset } : { kind: 'dataset' });
    return `Added ${created.count} example(s) to dataset ${i.dataset}: ${created.example_ids.join(', ')}`;
  },
});

/** The commit of a prompt a reference names: 'latest', a hash or its prefix; with the tags on the prompt. */
async function commitOf(client: LangSmithClient, identifier: string, ref: string, signal?: AbortSignal): Promise<{ id: string; hash: string }> {
  for await (const c of client.prompts.listCommits(identifier, { limit: ref === 'latest' ? 1 : 1000, signal })) {
    if (ref === 'latest' || c.commit_hash.startsWith(ref.toLowerCase())) {
      if (!c.id) break;
      return { id: c.id, hash: c.commit_hash };
    }
  }
  throw new ToolInputError(`Prompt ${identifier} has no commit “${ref}”. get_prompt shows the latest commit hash.`);
}

async function ownTarget(client: LangSmithClient, prompt: string, action: string, signal?: AbortSignal) {
  const target = await resolveTarget(client, prompt, action, signal);
  if (target.refusal) throw new ToolInputError(target.refusal);
  return target;
}

export const tagPromptVersion = defineTool({
  name: 'tag_prompt_version',
  title: 'Tag a prompt version',
  description: 'Puts a tag (e.g. staging, production) on a commit of a prompt of this workspace; a tag that exists moves to that commit.',
  kind: 'write',
  annotations: writeHints({ idempotent: true }),
  input: z.object({
    prompt: z.string().min(1).max(300).describe('The prompt’s name.'),
    commit: z.string().regex(/^(latest|[0-9a-f]{6,64})$/i, 'commit must be `latest` or a commit hash (at least 6 hex characters)').default('latest'),
    tag: z.string().min(1).max(100).refine((t) => !tagNameProblem(t), { message: 'Tag names use letters, digits, -, _ and . and are not `latest` or a hex commit prefix.' }),
  }),
  async prepare(i, { client, signal }) {
    const t = await ownTarget(client, i.prompt, 'create a tag', signal);
    const c = await commitOf(client, t.identifier, i.commit, signal);
    const now = (await client.prompts.listTags(t.identifier, { signal })).find((x) => x.tag_name === i.tag);
    const from = now ? (now.commit_hash ? `move tag “${i.tag}” from commit ${now.commit_hash.slice(0, 8)}` : `move tag “${i.tag}”`) : `create tag “${i.tag}”`;
    return `On prompt ${t.identifier}: ${from} to commit ${c.hash.slice(0, 8)} (${c.hash}).`;
  },
  async run(i, { client, signal, changed }) {
    const t = await ownTarget(client, i.prompt, 'create a tag', signal);
    const c = await commitOf(client, t.identifier, i.commit, signal);
    await setCommitTag(client, t.identifier, i.tag, c.id, signal);
    changed?.({ kind: 'prompt', name: t.name, handle: t.handle });
    return `Tag “${i.tag}” of prompt ${t.identifier} is on commit ${c.hash.slice(0, 8)} (${c.hash}).`;
  },
});

const messageInput = z.object({ role: z.enum(['system', 'human', 'ai']), template: z.string().max(100_000) });

const pushInput = z
  .object({
    path: z.string().min(1).max(1000).optional().describe('A prompt file of the workspace (*.prompt.yaml or *.prompt.json), relative to the workspace folder.'),
    prompt: z.string().min(1).max(300).optional().describe('With `messages`: the prompt’s name.'),
    messages: z.array(messageInput).min(1).max(50).optional().describe('With `prompt`: the messages of the new version.'),
    templateFormat: z.enum(TEMPLATE_FORMATS as unknown as [string, ...string[]]).default('f-string').describe('With `messages`: f-string ({var}) or mustache ({{var}}).'),
    description: z.string().max(2000).optional().describe('The commit’s description: what changed and why.'),
    tags: z.array(z.string().min(1).max(100)).max(10).default([]).describe('Tags to put on the new commit, e.g. staging.'),
  })
  .refine((i) => (i.path ? !i.prompt && !i.messages : !!i.prompt && !!i.messages), { message: 'Give either `path` (a prompt file) or both `prompt` and `messages`.' })
  .refine((i) => i.tags.every((t) => !tagNameProblem(t)), { message: 'Tag names use letters, digits, -, _ and . and are not `latest` or a hex commit prefix.' });

function fileOf(i: z.infer<typeof pushInput>, ctx: ToolContext): PromptFile {
  if (i.messages) {
    const format = i.templateFormat as PromptFile['templateFormat'];
    return {
      identifier: i.prompt!,
      templateFormat: format,
      body: { kind: 'chat', messages: i.messages.map((m) => ({ kind: 'message', role: m.role, chatRole: false, template: m.template, templateFormat: format })) },
    };
  }
  if (!ctx.workspaceRoot) throw new ToolInputError('No workspace folder is open: give `prompt` and `messages` instead of `path`.');
  const root = path.resolve(ctx.workspaceRoot);
  const full = path.resolve(root, i.path!);
  if (full !== root && !full.startsWith(root + path.sep)) throw new ToolInputError(`“${i.path}” is outside the workspace folder.`);
  if (!/\.prompt\.(ya?ml|json)$/i.test(full)) throw new ToolInputError(`“${i.path}” is not a prompt file (*.prompt.yaml or *.prompt.json).`);
  let text: string;
  try {
    text = fs.readFileSync(full, 'utf8');
  } catch {
    throw new ToolInputError(`Cannot read the prompt file “${i.path}” in the workspace folder.`);
  }
  const parsed = parsePromptText(text, path.basename(full));
  const problem = firstError(parsed);
  if (problem || !parsed.file) throw new ToolInputError(`The prompt file “${i.path}” cannot be pushed: ${problem ?? 'it is not a prompt file'}`);
  if (!parsed.file.identifier) throw new ToolInputError(`The prompt file “${i.path}” names no prompt: add \`prompt: <name>\` at the top.`);
  return parsed.file;
}

export const pushPrompt = defineTool({
  name: 'push_prompt',
  title: 'Push a prompt version',
  description:
    'Commits a new version of a prompt of this workspace, from a prompt file of the workspace (`path`) or from `messages` given with the prompt’s name, ' +
    'with a commit description and tags. A prompt that does not exist yet is created. Prompts of another workspace are refused.',
  kind: 'write',
  annotations: writeHints(),
  input: pushInput,
  async prepare(i, ctx) {
    const file = fileOf(i, ctx);
    const remote = await readRemote(ctx.client, file.identifier!, ctx.signal);
    if (remote.target.refusal) throw new ToolInputError(remote.target.refusal);
    const changes = changesBetween(remote, file);
    const lines = [
      remote.repo
        ? `Commit a new version of prompt ${remote.target.identifier} on its latest commit ${remote.latest?.commit_hash.slice(0, 8) ?? '(none)'}:`
        : `Create prompt ${remote.target.identifier} with its first commit:`,
    ];
    if (!changes.length) lines.push('Nothing changes in the content: no new commit.');
    for (const c of changes) {
      lines.push(`${c.section} (${c.kind}${c.attribute ? ', prompt attribute' : ''}):`);
      for (const l of c.lines) lines.push(`${l.type === 'add' ? '+' : l.type === 'del' ? '-' : ' '} ${l.text}`);
    }
    if (i.description) lines.push(`Commit description: ${i.description}`);
    if (i.tags.length) lines.push(`Tags on the new commit: ${i.tags.join(', ')}`);
    return lines.join('\n');
  },
  async run(i, ctx) {
    const file = fileOf(i, ctx);
    const target = await ownTarget(ctx.client, file.identifier!, 'create a commit', ctx.signal);
    const latest = await ctx.client.prompts.latestCommitHash(target.identifier, { signal: ctx.signal }).catch(() => undefined);
    const out = await pushPromptFile(ctx.client, file, { expectedParent: latest ?? null, description: i.description, commitTags: i.tags, signal: ctx.signal });
    if (out.status === 'stale') return `Someone committed to ${target.identifier} just now (latest ${out.latest ?? 'none'}): nothing was pushed; read it again and retry.`;
    // A new prompt changes the list; a new commit, a tag or an attribute, the prompt's own row.
    ctx.changed?.(out.status === 'pushed' && out.created ? { kind: 'prompt' } : { kind: 'prompt', name: target.name, handle: target.handle });
    if (out.status === 'nothingToCommit') return `Prompt ${target.identifier} already has this content at commit ${out.commitHash ?? '?'}: no new commit${out.tags.length ? `; tagged ${out.tags.join(', ')}` : ''}.`;
    return `${out.created ? 'Created prompt' : 'Pushed'} ${target.identifier}: commit ${out.commitHash}${out.tags.length ? ` tagged ${out.tags.join(', ')}` : ''} · ${out.url}`;
  },
});

export const WRITES: AgentTool[] = [pushPrompt, tagPromptVersion, createDataset, addExamples, addRunsToAnnotationQueue, addFeedback];

