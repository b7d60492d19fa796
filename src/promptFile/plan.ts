// What pushing many prompt files would do, read in few requests: the prompts of the own workspace are listed
// with their latest manifests (one request per hundred prompts) and only what the listing cannot tell is read
// one by one (a prompt it does not show, a manifest it leaves out, where an existing commit tag points). The
// decisions are pushPromptFile's, so a plan says what a push does.
import type { LangSmithClient, PromptRepo, PromptTag } from '../client';
import { ListReposSchema } from '../client/schemas';
import { fromManifest, toManifest } from './manifest';
import type { PromptFile, PromptMeta } from './model';
import { rewritePromptFile } from './write';
import { attributeUpdates, canonicalJson, changesBetween, targetOf, type Change, type KnownRemote, type PromptTarget, type TagState } from './sync';

export interface AttributeStep {
  name: 'description' | 'readme' | 'tags' | 'visibility';
  from: string;
  to: string;
}

/** add: a new tag; move: it points elsewhere now; keep: it already names the commit. */
export interface TagStep extends TagState {
  /** Where a tag to move points now. */
  from?: string;
}

export interface PromptPlan {
  /** As the file names it. */
  identifier: string;
  target: PromptTarget;
  /** The spec's refusal when the prompt is another workspace's: nothing may be applied. */
  refusal?: string;
  /** The prompt does not exist: applying creates it. */
  create: boolean;
  attributes: AttributeStep[];
  /** A new commit and what it changes (content sections), or null when the content is the latest commit's. */
  commit: { parent: string | null; changes: Change[] } | null;
  tags: TagStep[];
  /** The latest commit now (what an apply expects as the parent). */
  latest: string | null;
  /** Whether applying would change anything. */
  changed: boolean;
  /** What was read, for the push that applies the plan (pushPromptFile's `known`): it need not read it again. */
  known: KnownRemote;
}

export interface PlanOptions {
  /** Commit tags to put on each prompt's commit. */
  tags?: string[];
  signal?: AbortSignal;
  /** Reads at the same time. Default 8. */
  concurrency?: number;
  /** From how many prompts on the workspace's prompts are listed rather than read one by one. Default 6. */
  listFrom?: number;
}

/** A repo as GET /repos answers it, with the fields a plan reads besides the schema's. */
type ListedRepo = PromptRepo & {
  commit_tags?: string[] | null;
  latest_commit_manifest?: { commit_hash?: string; manifest?: unknown } | null;
};

interface Remote {
  repo: ListedRepo | null;
  manifest: unknown;
  /** Whether the manifest came from a listing (then a difference is checked against a full pull). */
  listed: boolean;
}

/** Runs `work` over `items`, at most `n` at a time, keeping the order of the results. */
export async function inPool<T, R>(items: readonly T[], n: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(n, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  });
  await Promise.all(lanes);
  return out;
}

/** The own workspace's prompts with the given names, by listing them with their latest manifests. */
async function listOwn(client: LangSmithClient, tenantId: string | null | undefined, names: Set<string>, signal?: AbortSignal): Promise<Map<string, ListedRepo>> {
  const found = new Map<string, ListedRepo>();
  const pageSize = 100;
  for (let offset = 0; found.size < names.size; offset += pageSize) {
    const page = await client.http.request({
      path: '/repos',
      query: { tenant_id: tenantId ?? undefined, is_archived: 'allow', with_latest_manifest: true, sort_field: 'updated_at', sort_direction: 'desc', limit: pageSize, offset },
      action: 'list prompts',
      schema: ListReposSchema,
      signal,
    });
    for (const r of page.repos as ListedRepo[]) if (names.has(r.repo_handle) && !found.has(r.repo_handle)) found.set(r.repo_handle, r);
    if (page.repos.length < pageSize) break;
  }
  return found;
}

function attributeText(name: AttributeStep['name'], file: PromptFile, repo: PromptRepo): { from: string; to: string } {
  switch (name) {
    case 'description':
      return { from: repo.description ?? '', to: file.description ?? '' };
    case 'readme':
      return { from: repo.readme ?? '', to: file.readme ?? '' };
    case 'tags':
      return { from: (repo.tags ?? []).join(', '), to: (file.tags ?? []).join(', ') };
    case 'visibility':
      return { from: repo.is_public ? 'public' : 'private', to: file.visibility ?? '' };
  }
}

/**
 * What applying each prompt file would do. Files must name their prompt (`identifier`), each a different one.
 * Another workspace's prompt gets its refusal and is not read.
 */
export async function planPromptFiles(client: LangSmithClient, files: readonly PromptFile[], o: PlanOptions = {}): Promise<PromptPlan[]> {
  const signal = o.signal;
  const settings = await client.settings({ signal });
  const handle = settings.tenant_handle ?? null;
  const targets = files.map((f) => {
    if (!f.identifier) throw new Error('planPromptFiles: a file names no prompt');
    return targetOf(f.identifier, handle);
  });
  const own = [...new Set(targets.filter((t) => t.own).map((t) => t.name))];
  const concurrency = o.concurrency ?? 8;

  // The repos: listed together when there are several, read one by one otherwise (and for any the list misses).
  const repos = own.length >= (o.listFrom ?? 6) ? await listOwn(client, settings.id, new Set(own), signal) : new Map<string, ListedRepo>();
  const missing = own.filter((n) => !repos.has(n));
  await inPool(missing, concurrency, async (name) => {
    const repo = (await client.prompts.get(name, { signal })) as ListedRepo | null;
    if (repo) repos.set(name, repo);
  });

  const remotes = new Map<string, Remote>();
  const pull = async (name: string, hash: string) => (await client.prompts.pull(`${name}:${hash}`, { includeModel: true, signal })).manifest;
  await inPool(own, concurrency, async (name) => {
    const repo = repos.get(name) ?? null;
    const hash = repo?.last_commit_hash ?? null;
    if (!repo || !hash) return void remotes.set(name, { repo, manifest: undefined, listed: false });
    const listed = repo.latest_commit_manifest;
    if (listed && listed.commit_hash === hash && listed.manifest !== undefined) remotes.set(name, { repo, manifest: listed.manifest, listed: true });
    else remotes.set(name, { repo, manifest: await pull(name, hash), listed: false });
  });

  const wanted = o.tags ?? [];
  return inPool(files, concurrency, async (file, i): Promise<PromptPlan> => {
    const target = targets[i]!;
    const identifier = file.identifier!;
    const empty = { identifier, target, create: false, attributes: [], commit: null, tags: [], latest: null, changed: false, known: { repo: null, manifest: undefined } };
    if (target.refusal) return { ...empty, refusal: target.refusal };
    const remote = remotes.get(target.name)!;
    const repo = remote.repo;
    if (!repo) {
      const changes = changesBetween({ manifest: undefined, repo: null }, file);
      const tags = wanted.map((name): TagStep => ({ name, action: 'add' }));
      return { ...empty, create: true, commit: { parent: null, changes }, tags, changed: true, known: { repo: null, manifest: undefined, tags } };
    }
    const latest = repo.last_commit_hash ?? null;
    const attributes = attributeUpdates(file, repo).names.map((name) => ({ name, ...attributeText(name, file, repo) }));
    let manifest = remote.manifest;
    const same = (m: unknown) => m !== undefined && canonicalJson(toManifest(file, m)) === canonicalJson(m);
    let unchanged = same(manifest);
    if (!unchanged && remote.listed && latest) {
      // A listing may leave out what a full pull has (the model saved with the prompt): check before saying so.
      manifest = await pull(target.name, latest);
      unchanged = same(manifest);
    }
    const commit = unchanged ? null : { parent: latest, changes: changesBetween({ manifest, repo: null }, file) };
    let tags: TagStep[] = [];
    if (wanted.length) {
      const names = repo.commit_tags;
      const needList = commit === null && (names === undefined || names === null || wanted.some((t) => names.includes(t)));
      const existing: PromptTag[] = needList ? await client.prompts.listTags(target.name, { signal }) : [];
      tags = wanted.map((name): TagStep => {
        const at = existing.find((t) => t.tag_name === name)?.commit_hash ?? undefined;
        const exists = needList ? existing.some((t) => t.tag_name === name) : !!names?.includes(name);
        if (!exists) return { name, action: 'add' };
        if (commit === null && at !== undefined && at === latest) return { name, action: 'keep' };
        return { name, action: 'move', ...(at ? { from: at } : {}) };
      });
    }
    const changed = attributes.length > 0 || commit !== null || tags.some((t) => t.action !== 'keep');
    return { ...empty, attributes, commit, tags, latest, changed, known: { repo, manifest, tags } };
  });
}

/**
 * The remote version of a prompt as a file laid out like the local one: its comments and key order, and only
 * the attributes the local file sets, so that a diff of the two shows what differs in content.
 */
export function remoteLikeLocal(localText: string, local: PromptFile, manifest: unknown, meta: PromptMeta): string {
  const f = local;
  const remote = fromManifest(manifest, {
    identifier: f.identifier ?? meta.identifier,
    description: f.description !== undefined ? (meta.description ?? '') : undefined,
    readme: f.readme !== undefined ? (meta.readme ?? '') : undefined,
    tags: f.tags !== undefined ? (meta.tags ?? []) : undefined,
    isPublic: f.visibility !== undefined ? meta.isPublic : undefined,
  });
  if (f.tags !== undefined && !remote.tags) remote.tags = [];
  if (f.inputVariables === undefined) delete remote.inputVariables;
  return rewritePromptFile(localText, remote);
}
