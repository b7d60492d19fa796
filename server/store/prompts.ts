// Prompt hub storage: repos, their commits (a parent chain per repo), commit tags and likes. SQL and
// transactions live here; the route files parse input and shape answers.
//
// Tenant rules: owner `-` is the caller's own tenant; another tenant's repo is readable only when public, and
// only its own tenant may change it.
import crypto from 'node:crypto';
import type { Ctx, Tenant } from '../context';
import { HttpError, conflict, notFound } from '../errors';
import { newId } from '../ids';
import { canonicalJson } from '../json';
import { nowIso } from '../time';

/** One strictly increasing clock for repository changes, so sorting by updated_at never ties. */
const REPO_CLOCK = 'repos';

export interface RepoRow {
  id: string;
  tenant_id: string;
  repo_handle: string;
  description: string | null;
  readme: string | null;
  tags: string;
  is_public: number;
  is_archived: number;
  num_downloads: number;
  num_views: number;
  created_at: string;
  updated_at: string;
}

export interface CommitRow {
  seq: number;
  id: string;
  repo_id: string;
  commit_hash: string;
  parent_id: string | null;
  manifest: string;
  manifest_canonical: string;
  description: string | null;
  examples: string | null;
  created_at: string;
}

/** A commit tag with the hash of the commit it points at. */
export interface TagRow {
  id: string;
  repo_id: string;
  tag_name: string;
  commit_id: string;
  commit_hash: string;
  created_at: string;
  updated_at: string;
}

/** Figures of a repo that come from other tables (likes, commits), read for many repos at once. */
export interface RepoStats {
  num_likes: number;
  liked: boolean;
  last_hash: string | null;
  num_commits: number;
  /** The manifest of the latest commit, when asked for (`with_latest_manifest`). */
  latest?: { commit_hash: string; manifest: string } | null;
}

// ---- tenants and access --------------------------------------------------------------------------------------

export function ownerTenant(ctx: Ctx, caller: Tenant, owner: string): Tenant {
  if (owner === '-' || owner === caller.handle) return caller;
  const t = ctx.tenantByHandle.get(owner);
  if (!t) throw notFound(`Owner ${owner}`);
  return t;
}

/** A repo the caller may read: its own, or another tenant's public one (private ones stay hidden: 404). */
export function readableRepo(ctx: Ctx, caller: Tenant, owner: string, handle: string): { repo: RepoRow; tenant: Tenant } {
  const tenant = ownerTenant(ctx, caller, owner);
  const repo = ctx.st.one<RepoRow>('SELECT * FROM repos WHERE tenant_id = ? AND repo_handle = ?', tenant.id, handle);
  if (!repo || (tenant.id !== caller.id && !repo.is_public)) throw notFound(`Repo ${owner}/${handle}`);
  return { repo, tenant };
}

/** A repo the caller may change: only its own tenant's (another's readable one is a 403, not a 404). */
export function ownRepo(ctx: Ctx, caller: Tenant, owner: string, handle: string, action: string): RepoRow {
  const { repo, tenant } = readableRepo(ctx, caller, owner, handle);
  if (tenant.id !== caller.id) throw new HttpError(403, `Cannot ${action} for another tenant (current tenant: ${caller.handle}, requested tenant: ${owner})`);
  return repo;
}

const repoById = (ctx: Ctx, id: string) => ctx.st.one<RepoRow>('SELECT * FROM repos WHERE id = ?', id)!;

// ---- repos ---------------------------------------------------------------------------------------------------

export interface NewRepo {
  repo_handle: string;
  description?: string | null;
  readme?: string | null;
  tags?: string[] | null;
  is_public?: boolean | null;
}

export function insertRepo(ctx: Ctx, tenant: Tenant, b: NewRepo): RepoRow {
  if (ctx.st.one('SELECT 1 FROM repos WHERE tenant_id = ? AND repo_handle = ?', tenant.id, b.repo_handle))
    throw conflict(`Repo ${tenant.handle}/${b.repo_handle} already exists`);
  const now = ctx.clock.next(REPO_CLOCK);
  const id = newId();
  ctx.st.run(
    'INSERT INTO repos (id, tenant_id, repo_handle, description, readme, tags, is_public, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    id, tenant.id, b.repo_handle, b.description ?? null, b.readme ?? null, JSON.stringify(b.tags ?? []), b.is_public ? 1 : 0, now, now,
  );
  return repoById(ctx, id);
}

export function createRepo(ctx: Ctx, tenant: Tenant, b: NewRepo): RepoRow {
  return ctx.st.tx(() => insertRepo(ctx, tenant, b));
}

export interface RepoChanges {
  description?: string | null;
  readme?: string | null;
  tags?: string[] | null;
  is_public?: boolean | null;
  is_archived?: boolean | null;
}

/** Fields left undefined or null keep their value (LangSmith's PATCH cannot clear a field to null). */
export function updateRepo(ctx: Ctx, caller: Tenant, owner: string, handle: string, c: RepoChanges): RepoRow {
  const flag = (v: boolean | null | undefined) => (v == null ? null : v ? 1 : 0);
  return ctx.st.tx(() => {
    const r = ownRepo(ctx, caller, owner, handle, 'update a prompt');
    ctx.st.run(
      `UPDATE repos SET description = COALESCE(?, description), readme = COALESCE(?, readme), tags = COALESCE(?, tags),
         is_public = COALESCE(?, is_public), is_archived = COALESCE(?, is_archived), updated_at = ? WHERE id = ?`,
      c.description ?? null, c.readme ?? null, c.tags ? JSON.stringify(c.tags) : null, flag(c.is_public), flag(c.is_archived),
      ctx.clock.next(REPO_CLOCK), r.id,
    );
    return repoById(ctx, r.id);
  });
}

export function deleteRepo(ctx: Ctx, caller: Tenant, owner: string, handle: string): void {
  ctx.st.tx(() => {
    const r = ownRepo(ctx, caller, owner, handle, 'delete a prompt');
    ctx.st.run('DELETE FROM commits WHERE repo_id = ?', r.id);
    ctx.st.run('DELETE FROM repo_tags WHERE repo_id = ?', r.id);
    ctx.st.run('DELETE FROM repo_likes WHERE repo_id = ?', r.id);
    ctx.st.run('DELETE FROM tag_transitions WHERE repo_id = ?', r.id);
    ctx.st.run('DELETE FROM repos WHERE id = ?', r.id);
  });
}

/** The columns a repo listing may be sorted by (`relevance` is LangSmith's search order: most recent first here). */
const SORT_COLUMNS = {
  updated_at: 'r.updated_at', relevance: 'r.updated_at', created_at: 'r.created_at', num_likes: 'num_likes',
  num_downloads: 'r.num_downloads', num_views: 'r.num_views', repo_handle: 'r.repo_handle',
} as const;
export type RepoSortField = keyof typeof SORT_COLUMNS;
export const REPO_SORT_FIELDS = Object.keys(SORT_COLUMNS) as [RepoSortField, ...RepoSortField[]];

export interface RepoFilter {
  /** A tenant handle, or undefined. */
  tenantHandle?: string;
  tenantId?: string;
  isPublic?: boolean;
  /** true, false, or 'allow' (both). */
  isArchived?: boolean | 'allow';
  query?: string;
  tags: string[];
  hasCommits?: boolean;
  /** Repo types asked for; every repo here is a prompt, so asking only for other types finds nothing. */
  repoTypes: string[];
  sortField: RepoSortField;
  sortDirection: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export function listRepos(ctx: Ctx, caller: Tenant, f: RepoFilter): { rows: RepoRow[]; total: number } {
  const where: string[] = [];
  const params: unknown[] = [];
  // `-` as a handle names no tenant here (a public listing with it still spans every tenant), as before.
  const owner = f.tenantHandle && f.tenantHandle !== '-' ? ownerTenant(ctx, caller, f.tenantHandle) : undefined;
  const byId = f.tenantId ? ctx.tenantById.get(f.tenantId) : undefined;
  if (f.tenantId && !byId) return { rows: [], total: 0 };
  if (owner && byId && owner.id !== byId.id) return { rows: [], total: 0 };
  const tenant = owner ?? byId;
  if (tenant) {
    where.push('r.tenant_id = ?');
    params.push(tenant.id);
    if (tenant.id !== caller.id) where.push('r.is_public = 1');
  } else if (f.isPublic !== true) {
    // Without an owner, a listing is the caller's own repos; a public listing spans every tenant.
    where.push('r.tenant_id = ?');
    params.push(caller.id);
  }
  if (f.isPublic !== undefined) {
    where.push('r.is_public = ?');
    params.push(f.isPublic ? 1 : 0);
  }
  if (f.isArchived !== undefined && f.isArchived !== 'allow') {
    where.push('r.is_archived = ?');
    params.push(f.isArchived ? 1 : 0);
  }
  if (f.query) {
    where.push("(r.repo_handle LIKE ? ESCAPE '\\' OR r.description LIKE ? ESCAPE '\\')");
    const like = `%${f.query.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    params.push(like, like);
  }
  for (const t of f.tags) {
    where.push('EXISTS (SELECT 1 FROM json_each(r.tags) WHERE value = ?)');
    params.push(t);
  }
  if (f.hasCommits !== undefined) where.push(`${f.hasCommits ? '' : 'NOT '}EXISTS (SELECT 1 FROM commits c WHERE c.repo_id = r.id)`);
  if (f.repoTypes.length && !f.repoTypes.includes('prompt')) return { rows: [], total: 0 };
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = ctx.st.one<{ n: number }>(`SELECT COUNT(*) AS n FROM repos r ${whereSql}`, ...params)!.n;
  const rows = ctx.st.all<RepoRow>(
    `SELECT r.*, (SELECT COUNT(*) FROM repo_likes l WHERE l.repo_id = r.id) AS num_likes FROM repos r ${whereSql}
      ORDER BY ${SORT_COLUMNS[f.sortField]} ${f.sortDirection.toUpperCase()}, r.id LIMIT ? OFFSET ?`,
    ...params, f.limit, f.offset,
  );
  return { rows, total };
}

/** Likes, commit counts and latest hashes of many repos in two queries. */
export function repoStats(ctx: Ctx, caller: Tenant, ids: string[], withLatestManifest = false): Map<string, RepoStats> {
  const out = new Map<string, RepoStats>();
  if (!ids.length) return out;
  const marks = ids.map(() => '?').join(',');
  for (const id of ids) out.set(id, { num_likes: 0, liked: false, last_hash: null, num_commits: 0 });
  for (const r of ctx.st.all<{ repo_id: string; n: number; mine: number }>(
    `SELECT repo_id, COUNT(*) AS n, SUM(tenant_id = ?) AS mine FROM repo_likes WHERE repo_id IN (${marks}) GROUP BY repo_id`,
    caller.id, ...ids,
  )) {
    const s = out.get(r.repo_id)!;
    s.num_likes = r.n;
    s.liked = r.mine > 0;
  }
  for (const r of ctx.st.all<{ repo_id: string; n: number; last: string }>(
    `SELECT c.repo_id, COUNT(*) AS n, (SELECT c2.commit_hash FROM commits c2 WHERE c2.repo_id = c.repo_id ORDER BY c2.seq DESC LIMIT 1) AS last
       FROM commits c WHERE c.repo_id IN (${marks}) GROUP BY c.repo_id`,
    ...ids,
  )) {
    const s = out.get(r.repo_id)!;
    s.num_commits = r.n;
    s.last_hash = r.last;
  }
  if (withLatestManifest) {
    for (const id of ids) out.get(id)!.latest = null;
    for (const r of ctx.st.all<{ repo_id: string; commit_hash: string; manifest: string }>(
      `SELECT c.repo_id, c.commit_hash, c.manifest FROM commits c
        WHERE c.repo_id IN (${marks}) AND c.seq = (SELECT MAX(c2.seq) FROM commits c2 WHERE c2.repo_id = c.repo_id)`,
      ...ids,
    )) out.get(r.repo_id)!.latest = { commit_hash: r.commit_hash, manifest: r.manifest };
  }
  return out;
}

/** The names of a repo's commit tags, in name order. */
export function repoTagNames(ctx: Ctx, repoId: string): string[] {
  return ctx.st.all<{ tag_name: string }>('SELECT tag_name FROM repo_tags WHERE repo_id = ? ORDER BY tag_name', repoId).map((t) => t.tag_name);
}

// ---- commits -------------------------------------------------------------------------------------------------

const commitById = (ctx: Ctx, id: string) => ctx.st.one<CommitRow>('SELECT * FROM commits WHERE id = ?', id);
const latestCommit = (ctx: Ctx, repoId: string) => ctx.st.one<CommitRow>('SELECT * FROM commits WHERE repo_id = ? ORDER BY seq DESC LIMIT 1', repoId);

/** Resolves `latest`, a tag, a full hash or a unique hash prefix. */
export function findCommit(ctx: Ctx, repoId: string, ref: string): CommitRow {
  if (ref === 'latest') {
    const c = latestCommit(ctx, repoId);
    if (!c) throw notFound('No commits in this repo');
    return c;
  }
  const tag = ctx.st.one<{ commit_id: string }>('SELECT commit_id FROM repo_tags WHERE repo_id = ? AND tag_name = ?', repoId, ref);
  if (tag) return commitById(ctx, tag.commit_id)!;
  if (/^[0-9a-f]{4,64}$/i.test(ref)) {
    const rows = ctx.st.all<CommitRow>('SELECT * FROM commits WHERE repo_id = ? AND commit_hash LIKE ? LIMIT 2', repoId, `${ref.toLowerCase()}%`);
    if (rows.length === 1) return rows[0];
    if (rows.length > 1) throw new HttpError(409, `Commit prefix ${ref} is ambiguous`);
  }
  throw notFound(`Commit ${ref}`);
}

/** The hash of a commit's parent, or null for a first commit. */
export function parentHash(ctx: Ctx, c: CommitRow): string | null {
  if (!c.parent_id) return null;
  return ctx.st.one<{ commit_hash: string }>('SELECT commit_hash FROM commits WHERE id = ?', c.parent_id)?.commit_hash ?? null;
}

/**
 * Appends a commit (call inside a transaction). Its parent is `parentRef` when given, else the latest commit; a
 * manifest identical to the latest one is a 409, as in LangSmith ("Nothing to commit").
 */
export function createCommit(ctx: Ctx, repo: RepoRow, manifest: unknown, parentRef: string | null | undefined, description?: string | null): CommitRow {
  const latest = latestCommit(ctx, repo.id);
  let parent: CommitRow | undefined = latest;
  if (parentRef && parentRef !== 'latest') parent = findCommit(ctx, repo.id, parentRef);
  const canonical = canonicalJson(manifest);
  if (latest && latest.manifest_canonical === canonical) throw conflict('Nothing to commit: the manifest is identical to the latest commit');
  const now = ctx.clock.next(REPO_CLOCK);
  // The hash covers the parent and a random part, so two commits of the same manifest never share a hash.
  const hash = crypto.createHash('sha256').update(`${parent?.commit_hash ?? ''}\n${canonical}\n${now}\n${crypto.randomUUID()}`).digest('hex');
  const id = newId();
  ctx.st.run(
    'INSERT INTO commits (id, repo_id, commit_hash, parent_id, manifest, manifest_canonical, description, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    id, repo.id, hash, parent?.id ?? null, JSON.stringify(manifest), canonical, description ?? null, now,
  );
  ctx.st.run('UPDATE repos SET updated_at = ? WHERE id = ?', now, repo.id);
  return commitById(ctx, id)!;
}

/** A commit pushed by the caller to its own repo. */
export function pushCommit(
  ctx: Ctx, caller: Tenant, owner: string, handle: string, c: { manifest: unknown; parent_commit?: string | null; description?: string | null },
): { commit: CommitRow; repo: RepoRow } {
  return ctx.st.tx(() => {
    const repo = ownRepo(ctx, caller, owner, handle, 'create a commit');
    return { commit: createCommit(ctx, repo, c.manifest, c.parent_commit, c.description), repo };
  });
}

/** A repo's commits, newest first; with `tag`, only the commit that tag points at. */
export function listCommits(ctx: Ctx, repoId: string, f: { tag?: string; limit: number; offset: number }): { rows: CommitRow[]; total: number } {
  if (f.tag !== undefined) {
    const t = tagRow(ctx, repoId, f.tag);
    if (!t) return { rows: [], total: 0 };
    const rows = f.offset === 0 ? [commitById(ctx, t.commit_id)!] : [];
    return { rows, total: 1 };
  }
  const total = ctx.st.one<{ n: number }>('SELECT COUNT(*) AS n FROM commits WHERE repo_id = ?', repoId)!.n;
  const rows = ctx.st.all<CommitRow>('SELECT * FROM commits WHERE repo_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?', repoId, f.limit, f.offset);
  return { rows, total };
}

/** Counts a pull of a repo's commit: a view (the web page) or a download (a client). */
export function countPull(ctx: Ctx, repoId: string, view: boolean): void {
  if (view) ctx.st.run('UPDATE repos SET num_views = num_views + 1 WHERE id = ?', repoId);
  else ctx.st.run('UPDATE repos SET num_downloads = num_downloads + 1 WHERE id = ?', repoId);
}

// ---- commit tags ---------------------------------------------------------------------------------------------

const TAG_SQL = 'SELECT t.*, c.commit_hash FROM repo_tags t JOIN commits c ON c.id = t.commit_id';

function tagRow(ctx: Ctx, repoId: string, name: string): TagRow | undefined {
  return ctx.st.one<TagRow>(`${TAG_SQL} WHERE t.repo_id = ? AND t.tag_name = ?`, repoId, name);
}

function commitInRepo(ctx: Ctx, repoId: string, commitId: string): CommitRow {
  const c = ctx.st.one<CommitRow>('SELECT * FROM commits WHERE id = ? AND repo_id = ?', commitId, repoId);
  if (!c) throw notFound(`Commit ${commitId}`);
  return c;
}

export function listTags(ctx: Ctx, repoId: string): TagRow[] {
  return ctx.st.all<TagRow>(`${TAG_SQL} WHERE t.repo_id = ? ORDER BY t.tag_name`, repoId);
}

export function getTag(ctx: Ctx, repoId: string, name: string): TagRow {
  const t = tagRow(ctx, repoId, name);
  if (!t) throw notFound(`Tag ${name}`);
  return t;
}

export function createTag(ctx: Ctx, caller: Tenant, owner: string, handle: string, name: string, commitId: string): TagRow {
  return ctx.st.tx(() => {
    const r = ownRepo(ctx, caller, owner, handle, 'create a tag');
    commitInRepo(ctx, r.id, commitId);
    // A tag that looks like a hash (or `latest`) would shadow commits when pulled by reference.
    if (name === 'latest' || /^[0-9a-f]{8,}$/i.test(name)) throw new HttpError(422, `body.tag_name: "${name}" would be read as a commit reference`);
    if (tagRow(ctx, r.id, name)) throw conflict(`Tag ${name} already exists`);
    const now = nowIso();
    ctx.st.run('INSERT INTO repo_tags (id, repo_id, tag_name, commit_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', newId(), r.id, name, commitId, now, now);
    recordTransition(ctx, caller, r.id, name, null, commitId, now);
    return tagRow(ctx, r.id, name)!;
  });
}

/** Points an existing tag at another commit of the same repo. */
export function moveTag(ctx: Ctx, caller: Tenant, owner: string, handle: string, name: string, commitId: string): TagRow {
  return ctx.st.tx(() => {
    const r = ownRepo(ctx, caller, owner, handle, 'move a tag');
    const before = getTag(ctx, r.id, name);
    commitInRepo(ctx, r.id, commitId);
    const now = nowIso();
    ctx.st.run('UPDATE repo_tags SET commit_id = ?, updated_at = ? WHERE repo_id = ? AND tag_name = ?', commitId, now, r.id, name);
    // Pointing a tag where it already points changes nothing, so it is no transition.
    if (before.commit_id !== commitId) recordTransition(ctx, caller, r.id, name, before.commit_id, commitId, now);
    return tagRow(ctx, r.id, name)!;
  });
}

export function deleteTag(ctx: Ctx, caller: Tenant, owner: string, handle: string, name: string): void {
  ctx.st.tx(() => {
    const r = ownRepo(ctx, caller, owner, handle, 'delete a tag');
    const before = getTag(ctx, r.id, name);
    ctx.st.run('DELETE FROM repo_tags WHERE repo_id = ? AND tag_name = ?', r.id, name);
    recordTransition(ctx, caller, r.id, name, before.commit_id, null, nowIso());
  });
}

function recordTransition(ctx: Ctx, by: Tenant, repoId: string, name: string, from: string | null, to: string | null, at: string): void {
  ctx.st.run(
    'INSERT INTO tag_transitions (id, repo_id, tag_name, from_commit_id, to_commit_id, performed_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    newId(), repoId, name, from, to, by.id, at,
  );
}

/** One change of a tag: from nothing (created), between commits (moved) or to nothing (deleted). */
export interface TransitionRow {
  id: string;
  repo_id: string;
  tag_name: string;
  from_commit_id: string | null;
  from_commit_hash: string | null;
  to_commit_id: string | null;
  to_commit_hash: string | null;
  performed_by: string;
  created_at: string;
}

/** A tag's changes, newest first; 404 for a tag that never existed in the repo. */
export function tagHistory(ctx: Ctx, repoId: string, name: string, limit: number, offset: number): { rows: TransitionRow[]; total: number } {
  const total = ctx.st.one<{ n: number }>('SELECT COUNT(*) AS n FROM tag_transitions WHERE repo_id = ? AND tag_name = ?', repoId, name)!.n;
  // A tag made before this log existed has no entries, yet it is there.
  if (!total && !tagRow(ctx, repoId, name)) throw notFound(`Tag ${name}`);
  const rows = ctx.st.all<TransitionRow>(
    `SELECT t.id, t.repo_id, t.tag_name, t.from_commit_id, f.commit_hash AS from_commit_hash, t.to_commit_id, c.commit_hash AS to_commit_hash,
            t.performed_by, t.created_at
       FROM tag_transitions t LEFT JOIN commits f ON f.id = t.from_commit_id LEFT JOIN commits c ON c.id = t.to_commit_id
      WHERE t.repo_id = ? AND t.tag_name = ? ORDER BY t.seq DESC LIMIT ? OFFSET ?`,
    repoId, name, limit, offset,
  );
  return { rows, total };
}

// ---- likes ---------------------------------------------------------------------------------------------------

/** Likes or unlikes a readable repo for the caller's tenant; answers the repo's number of likes. */
export function setLike(ctx: Ctx, caller: Tenant, owner: string, handle: string, like: boolean): number {
  return ctx.st.tx(() => {
    const { repo } = readableRepo(ctx, caller, owner, handle);
    if (like) ctx.st.run('INSERT OR IGNORE INTO repo_likes (repo_id, tenant_id) VALUES (?, ?)', repo.id, caller.id);
    else ctx.st.run('DELETE FROM repo_likes WHERE repo_id = ? AND tenant_id = ?', repo.id, caller.id);
    return ctx.st.one<{ n: number }>('SELECT COUNT(*) AS n FROM repo_likes WHERE repo_id = ?', repo.id)!.n;
  });
}
