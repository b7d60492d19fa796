// A prompt file against LangSmith: what the remote prompt is now, what pushing the file would change, and the
// push itself (create or update the prompt, commit on the latest commit, tag the commit). No `vscode` here; the
// commit panel and the commands call these with the signed-in client.
import { diffLines } from 'diff';
import type { Commit, LangSmithClient, PromptRepo, PromptTag } from '../client';
import { isConflict, isNotFound, LangSmithValidationError } from '../client/errors';
import { MSG } from '../client/messages';
import { fromManifest, toManifest } from './manifest';
import type { FileMessage, PromptFile } from './model';

/** Where a prompt named by a file lives, and whether the caller may write to it. */
export interface PromptTarget {
  /** As the API wants it: `name` (own workspace) or `owner/name`. */
  identifier: string;
  owner: string | undefined;
  name: string;
  own: boolean;
  /** The caller's handle, when the workspace has one. */
  handle: string | null;
  /** The spec's refusal for another tenant's prompt, when it is one. */
  refusal?: string;
}

export async function resolveTarget(client: LangSmithClient, identifier: string, action = 'create a commit', signal?: AbortSignal): Promise<PromptTarget> {
  const handle = (await client.settings({ signal })).tenant_handle ?? null;
  return targetOf(identifier, handle, action);
}

/** Where a prompt lives for a caller whose workspace handle is known (no request). */
export function targetOf(identifier: string, handle: string | null, action = 'create a commit'): PromptTarget {
  const [owner, name] = identifier.includes('/') ? (identifier.split('/') as [string, string]) : [undefined, identifier];
  const own = owner === undefined || owner === '-' || owner === handle;
  return {
    identifier: own ? name : `${owner}/${name}`,
    owner,
    name,
    own,
    handle,
    ...(own ? {} : { refusal: MSG.otherTenant(action, handle, owner!) }),
  };
}

export interface RemotePrompt {
  target: PromptTarget;
  repo: PromptRepo | null;
  latest: Commit | null;
  /** The latest commit's manifest, with its model when it has one. */
  manifest: unknown;
  tags: PromptTag[];
}

/** The prompt a file names, as LangSmith has it now (repo null when it does not exist yet). */
export async function readRemote(client: LangSmithClient, identifier: string, signal?: AbortSignal): Promise<RemotePrompt> {
  const target = await resolveTarget(client, identifier, 'create a commit', signal);
  const repo = await client.prompts.get(target.identifier, { signal });
  if (!repo) return { target, repo: null, latest: null, manifest: undefined, tags: [] };
  const [latest, tags] = await Promise.all([firstCommit(client, target.identifier, signal), target.own ? client.prompts.listTags(target.identifier, { signal }) : Promise.resolve([])]);
  const manifest = latest ? (await client.prompts.pull(`${target.identifier}:${latest.commit_hash}`, { includeModel: true, signal })).manifest : undefined;
  return { target, repo, latest, manifest, tags };
}

async function firstCommit(client: LangSmithClient, identifier: string, signal?: AbortSignal): Promise<Commit | null> {
  for await (const c of client.prompts.listCommits(identifier, { limit: 1, signal })) return c;
  return null;
}

/** JSON with keys sorted: two manifests are the same commit content when these are equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

// ---------- what would change ----------

export interface ChangeLine {
  type: 'add' | 'del' | 'same';
  text: string;
}
export interface Change {
  /** 'Template format', 'Message 2 (human)', 'Model', 'Description'… */
  section: string;
  kind: 'added' | 'removed' | 'changed';
  /** A prompt attribute (updated on the prompt, not part of the commit). */
  attribute: boolean;
  lines: ChangeLine[];
}

function messageText(m: FileMessage): string {
  if (m.kind === 'placeholder') return `placeholder: ${m.name}${m.optional ? ' (optional)' : ''}`;
  const body = typeof m.template === 'string' ? m.template : m.template.map((p) => (p.type === 'text' ? p.text : `[${JSON.stringify(p.raw)}]`)).join('\n');
  return body;
}

function messageLabel(m: FileMessage | undefined, i: number): string {
  if (!m) return `Message ${i + 1}`;
  return m.kind === 'placeholder' ? `Message ${i + 1} (placeholder)` : `Message ${i + 1} (${m.role})`;
}

function lines(before: string | undefined, after: string | undefined): ChangeLine[] {
  const out: ChangeLine[] = [];
  for (const part of diffLines(before ?? '', after ?? '')) {
    const type = part.added ? 'add' : part.removed ? 'del' : 'same';
    const text = part.value.endsWith('\n') ? part.value.slice(0, -1) : part.value;
    for (const line of text.split('\n')) out.push({ type, text: line });
  }
  return out;
}

function modelText(model: PromptFile['model']): string | undefined {
  if (!model) return undefined;
  return [`class: ${model.id.join('.')}`, ...Object.entries(model.settings).map(([k, v]) => `${k}: ${JSON.stringify(v)}`)].join('\n');
}

/**
 * What pushing `local` would change against the remote prompt: commit content section by section (template
 * format, variables, each message, the model) and the prompt's attributes the file sets.
 */
export function changesBetween(remote: { manifest: unknown; repo: PromptRepo | null }, local: PromptFile): Change[] {
  const before: PromptFile | undefined = remote.manifest !== undefined ? fromManifest(remote.manifest) : undefined;
  const changes: Change[] = [];
  const add = (section: string, a: string | undefined, b: string | undefined, attribute = false) => {
    if (a === b) return;
    const kind = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    changes.push({ section, kind, attribute, lines: lines(a, b) });
  };
  add('Template format', before?.templateFormat, local.templateFormat);
  const vars = (f: PromptFile | undefined) => {
    if (!f) return undefined;
    return (f.inputVariables ?? []).join(', ') || undefined;
  };
  add('Input variables', vars(before), local.inputVariables ? vars(local) : vars(before));
  if (local.body.kind === 'string' || before?.body.kind === 'string') {
    const t = (f: PromptFile | undefined) => (!f ? undefined : f.body.kind === 'string' ? f.body.template : f.body.messages.map((m, i) => `${messageLabel(m, i)}:\n${messageText(m)}`).join('\n'));
    add(local.body.kind === 'string' ? 'Template' : 'Messages', t(before), t(local));
  } else {
    const a = before?.body.kind === 'chat' ? before.body.messages : [];
    const b = local.body.messages;
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const x = a[i];
      const y = b[i];
      const label = messageLabel(y ?? x, i);
      const text = (m: FileMessage | undefined) => (m ? `${m.kind === 'message' ? `role: ${m.role}${m.templateFormat !== local.templateFormat ? ` (${m.templateFormat})` : ''}\n` : ''}${messageText(m)}` : undefined);
      add(label, text(x), text(y));
    }
  }
  add('Model', modelText(before?.model), modelText(local.model));
  const repo = remote.repo;
  if (repo) {
    if (local.description !== undefined) add('Description', repo.description ?? '', local.description, true);
    if (local.readme !== undefined) add('Readme', repo.readme ?? '', local.readme, true);
    if (local.tags !== undefined) add('Prompt tags', (repo.tags ?? []).join(', '), local.tags.join(', '), true);
    if (local.visibility !== undefined) add('Visibility', repo.is_public ? 'public' : 'private', local.visibility, true);
  }
  return changes;
}

// ---------- push ----------

/** A commit tag asked for, as last read: add (it does not exist), move (it does), keep (it names the latest commit). */
export interface TagState {
  name: string;
  action: 'add' | 'move' | 'keep';
}

/** What was read of a prompt just before a push (a plan's reads), so that the push does not read it again. */
export interface KnownRemote {
  /** The prompt (null: it did not exist). */
  repo: PromptRepo | null;
  /** The manifest of the latest commit (the push's `expectedParent`), with its model; undefined without one. */
  manifest: unknown;
  /** Where the commit tags asked for stood; a tag not here is looked up (the prompt's tags listed once). */
  tags?: TagState[];
}

export interface PushOptions {
  /** The latest commit the user saw (null: the prompt had none). A different one now means someone committed since. */
  expectedParent: string | null;
  description?: string;
  /** Tags to put on the new commit (an existing tag moves to it). */
  commitTags?: string[];
  /** For a prompt that does not exist yet. */
  create?: { description?: string; isPublic?: boolean };
  /**
   * The prompt as read with `expectedParent` as its latest commit: the push then reads only the latest commit
   * (whether someone committed since) and writes. A prompt made or deleted since is read again in full.
   */
  known?: KnownRemote;
  signal?: AbortSignal;
}

export type PushOutcome =
  | { status: 'pushed'; commitHash: string; commitId: string; url: string; created: boolean; updated: string[]; tags: string[] }
  | { status: 'nothingToCommit'; commitHash: string | null; updated: string[]; tags: string[] }
  | { status: 'stale'; latest: string | null };

/** Puts a tag on a commit: moves it when it exists (never a conflict), creates it otherwise. */
export async function setCommitTag(client: LangSmithClient, identifier: string, tagName: string, commitId: string, signal?: AbortSignal): Promise<void> {
  const existing = await client.prompts.listTags(identifier, { signal });
  await putCommitTag(client, identifier, tagName, commitId, existing.some((t) => t.tag_name === tagName), signal);
}

/**
 * Puts a tag on a commit, knowing whether it exists: one request (a move or a creation), two when that changed
 * since it was read (a tag created in between is moved, one deleted in between is created).
 */
async function putCommitTag(client: LangSmithClient, identifier: string, tagName: string, commitId: string, exists: boolean, signal?: AbortSignal): Promise<void> {
  if (exists) {
    try {
      await client.prompts.moveTag(identifier, { tagName, commitId, signal });
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await client.prompts.createTag(identifier, { tagName, commitId, signal });
    }
    return;
  }
  try {
    await client.prompts.createTag(identifier, { tagName, commitId, signal });
  } catch (e) {
    if (!isConflict(e)) throw e;
    await client.prompts.moveTag(identifier, { tagName, commitId, signal });
  }
}

/** Tag names as LangSmith takes them (a commit reference such as `latest` or a hex prefix would be ambiguous). */
export function tagNameProblem(name: string): string | undefined {
  if (!name) return 'A tag needs a name.';
  if (name.length > 100) return 'A tag name has at most 100 characters.';
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) return `“${name}” is not a tag name: use letters, digits, -, _ and .`;
  if (name === 'latest' || /^[0-9a-f]{8,}$/i.test(name)) return `“${name}” would be read as a commit reference; choose another name.`;
  return undefined;
}

export interface AttributeUpdates {
  attrs: { description?: string; readme?: string; tags?: string[]; isPublic?: boolean };
  /** The attributes that change, in the file's order: description, readme, tags, visibility. */
  names: ('description' | 'readme' | 'tags' | 'visibility')[];
}

/** The attributes of an existing prompt that a push of the file changes (only those the file sets). */
export function attributeUpdates(file: PromptFile, repo: PromptRepo): AttributeUpdates {
  const attrs: AttributeUpdates['attrs'] = {};
  const names: AttributeUpdates['names'] = [];
  if (file.description !== undefined && file.description !== (repo.description ?? '')) {
    attrs.description = file.description;
    names.push('description');
  }
  if (file.readme !== undefined && file.readme !== (repo.readme ?? '')) {
    attrs.readme = file.readme;
    names.push('readme');
  }
  if (file.tags !== undefined && canonicalJson(file.tags) !== canonicalJson(repo.tags ?? [])) {
    attrs.tags = file.tags;
    names.push('tags');
  }
  if (file.visibility !== undefined && (file.visibility === 'public') !== !!repo.is_public) {
    attrs.isPublic = file.visibility === 'public';
    names.push('visibility');
  }
  return { attrs, names };
}

/**
 * Pushes a prompt file: refuses another tenant's prompt before anything is sent, stops when someone committed
 * since `expectedParent`, creates the prompt when absent or updates the attributes the file changes, commits
 * the manifest onto the latest commit unless it is the same content, and tags the commit. With `known` (what a
 * plan read) the prompt is not read again: one read of the latest commit for an existing prompt, none for a
 * missing one (its creation fails if someone made it since), then the writes.
 */
export async function pushPromptFile(client: LangSmithClient, file: PromptFile, o: PushOptions): Promise<PushOutcome> {
  if (!file.identifier) throw new LangSmithValidationError('This prompt file names no prompt: add `prompt: <name>` at the top.');
  for (const t of o.commitTags ?? []) {
    const problem = tagNameProblem(t);
    if (problem) throw new LangSmithValidationError(problem);
  }
  const signal = o.signal;
  const target = await resolveTarget(client, file.identifier, 'create a commit', signal);
  if (target.refusal) throw new LangSmithValidationError(target.refusal);
  const id = target.identifier;
  const known = o.known;
  let repo: PromptRepo | null;
  let latest: Commit | null;
  if (known?.repo) {
    repo = known.repo;
    try {
      latest = await firstCommit(client, id, signal);
    } catch (e) {
      // Deleted since it was read: decide on what is there now.
      if (!isNotFound(e)) throw e;
      return pushPromptFile(client, file, { ...o, known: undefined });
    }
  } else if (known) {
    repo = null;
    latest = null;
  } else {
    repo = await client.prompts.get(id, { signal });
    latest = repo ? await firstCommit(client, id, signal) : null;
  }
  if ((latest?.commit_hash ?? null) !== o.expectedParent) return { status: 'stale', latest: latest?.commit_hash ?? null };

  let created = false;
  const updated: string[] = [];
  if (!repo) {
    const isPublic = o.create?.isPublic ?? file.visibility === 'public';
    try {
      await client.prompts.create(id, { description: o.create?.description ?? file.description, readme: file.readme, tags: file.tags, isPublic, signal });
    } catch (e) {
      // Made by someone else since it was read: decide on what is there now.
      if (!known || !isConflict(e)) throw e;
      return pushPromptFile(client, file, { ...o, known: undefined });
    }
    created = true;
  } else {
    const { attrs, names } = attributeUpdates(file, repo);
    updated.push(...names);
    if (updated.length) await client.prompts.update(id, { ...attrs, signal });
  }

  const base = !latest ? undefined : known?.manifest !== undefined ? known.manifest : (await client.prompts.pull(`${id}:${latest.commit_hash}`, { includeModel: true, signal })).manifest;
  const manifest = toManifest(file, base);
  const steps = new Map((known?.tags ?? []).map((t) => [t.name, t.action]));
  let listed: Promise<Set<string>> | undefined;
  const exists = async (name: string) => {
    const step = steps.get(name);
    if (step) return step !== 'add';
    // The prompt's tags are listed once, whatever the number of tags.
    listed ??= client.prompts.listTags(id, { signal }).then((ts) => new Set(ts.map((t) => t.tag_name)));
    return (await listed).has(name);
  };
  const tagAll = async (commitId: string, onLatest: boolean) => {
    for (const t of o.commitTags ?? []) {
      if (onLatest && steps.get(t) === 'keep') continue;
      await putCommitTag(client, id, t, commitId, await exists(t), signal);
    }
    return o.commitTags ?? [];
  };
  if (latest && base !== undefined && canonicalJson(manifest) === canonicalJson(base)) {
    return { status: 'nothingToCommit', commitHash: latest.commit_hash, updated, tags: latest.id ? await tagAll(latest.id, true) : [] };
  }
  let result;
  try {
    result = await client.prompts.createCommit(id, manifest, { parentCommitHash: latest?.commit_hash, description: o.description || undefined, exists: true, signal });
  } catch (e) {
    if (isConflict(e) && /nothing to commit/i.test(e.message) && latest) {
      return { status: 'nothingToCommit', commitHash: latest.commit_hash, updated, tags: latest.id ? await tagAll(latest.id, true) : [] };
    }
    throw e;
  }
  const commitId = result.commit.id ?? '';
  const tags = commitId ? await tagAll(commitId, false) : [];
  return { status: 'pushed', commitHash: result.commit_hash, commitId, url: result.url, created, updated, tags };
}
