// Prompt hub: repos, commits (parent chain, 409 on an unchanged manifest), lookup by hash/prefix/tag/latest,
// commit tags, likes. Tenant rules: `-` is the caller's own tenant; other tenants' public repos are readable.
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Ctx, Tenant } from '../context';
import {
  HttpError, canonicalJson, conflict, jsonOrNull, newId, notFound, nowIso, parseBody, queryBool, queryInt, queryList,
  queryString,
} from '../util';
import { parseMaybeJson } from './runs';

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

const HANDLE_RE = /^[a-z0-9][a-z0-9_.-]*$/i;

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

/** A repo the caller may change: only its own tenant's. */
function ownRepo(ctx: Ctx, caller: Tenant, owner: string, handle: string, action: string): RepoRow {
  const { repo, tenant } = readableRepo(ctx, caller, owner, handle);
  if (tenant.id !== caller.id) throw new HttpError(403, `Cannot ${action} for another tenant (current tenant: ${caller.handle}, requested tenant: ${owner})`);
  return repo;
}

function repoOut(ctx: Ctx, caller: Tenant, r: RepoRow, extra?: { num_likes: number; liked: number; last_hash: string | null; num_commits: number }) {
  const tenant = ctx.tenantById.get(r.tenant_id);
  const stats = extra ?? repoStats(ctx, caller, [r.id]).get(r.id)!;
  const tagRows = ctx.st.all<{ tag_name: string }>('SELECT tag_name FROM repo_tags WHERE repo_id = ? ORDER BY tag_name', r.id);
  return {
    id: r.id,
    repo_handle: r.repo_handle,
    owner: tenant?.handle ?? null,
    full_name: `${tenant?.handle ?? '-'}/${r.repo_handle}`,
    tenant_id: r.tenant_id,
    description: r.description,
    readme: r.readme,
    tags: JSON.parse(r.tags),
    is_public: !!r.is_public,
    is_archived: !!r.is_archived,
    created_at: r.created_at,
    updated_at: r.updated_at,
    num_likes: stats.num_likes,
    num_downloads: r.num_downloads,
    num_views: r.num_views,
    liked_by_auth_user: !!stats.liked,
    last_commit_hash: stats.last_hash,
    num_commits: stats.num_commits,
    commit_tags: tagRows.map((t) => t.tag_name),
    original_repo_id: null,
    upstream_repo_id: null,
    original_repo_full_name: null,
    upstream_repo_full_name: null,
    repo_type: 'prompt',
    restricted_mode: false,
  };
}

function repoStats(ctx: Ctx, caller: Tenant, ids: string[]) {
  const out = new Map<string, { num_likes: number; liked: number; last_hash: string | null; num_commits: number }>();
  if (!ids.length) return out;
  const marks = ids.map(() => '?').join(',');
  for (const id of ids) out.set(id, { num_likes: 0, liked: 0, last_hash: null, num_commits: 0 });
  for (const r of ctx.st.all(`SELECT repo_id, COUNT(*) AS n, SUM(tenant_id = ?) AS mine FROM repo_likes WHERE repo_id IN (${marks}) GROUP BY repo_id`, caller.id, ...ids)) {
    const s = out.get(r.repo_id)!;
    s.num_likes = r.n;
    s.liked = r.mine;
  }
  for (const r of ctx.st.all(
    `SELECT c.repo_id, COUNT(*) AS n, (SELECT c2.commit_hash FROM commits c2 WHERE c2.repo_id = c.repo_id ORDER BY c2.seq DESC LIMIT 1) AS last
       FROM commits c WHERE c.repo_id IN (${marks}) GROUP BY c.repo_id`,
    ...ids,
  )) {
    const s = out.get(r.repo_id)!;
    s.num_commits = r.n;
    s.last_hash = r.last;
  }
  return out;
}

function commitOut(ctx: Ctx, c: CommitRow, fullName: string) {
  const parent = c.parent_id ? ctx.st.one<{ commit_hash: string }>('SELECT commit_hash FROM commits WHERE id = ?', c.parent_id) : undefined;
  return {
    id: c.id,
    commit_hash: c.commit_hash,
    parent_id: c.parent_id,
    parent_commit_hash: parent?.commit_hash ?? null,
    repo_id: c.repo_id,
    full_name: fullName,
    manifest: JSON.parse(c.manifest),
    description: c.description,
    examples: jsonOrNull(c.examples) ?? [],
    created_at: c.created_at,
    num_downloads: 0,
    num_views: 0,
  };
}

/** Resolves `latest`, a tag, a full hash or a unique hash prefix. */
export function findCommit(ctx: Ctx, repoId: string, ref: string): CommitRow {
  if (ref === 'latest') {
    const c = ctx.st.one<CommitRow>('SELECT * FROM commits WHERE repo_id = ? ORDER BY seq DESC LIMIT 1', repoId);
    if (!c) throw notFound('No commits in this repo');
    return c;
  }
  const tag = ctx.st.one<{ commit_id: string }>('SELECT commit_id FROM repo_tags WHERE repo_id = ? AND tag_name = ?', repoId, ref);
  if (tag) return ctx.st.one<CommitRow>('SELECT * FROM commits WHERE id = ?', tag.commit_id)!;
  if (/^[0-9a-f]{4,64}$/i.test(ref)) {
    const rows = ctx.st.all<CommitRow>('SELECT * FROM commits WHERE repo_id = ? AND commit_hash LIKE ? LIMIT 2', repoId, `${ref.toLowerCase()}%`);
    if (rows.length === 1) return rows[0];
    if (rows.length > 1) throw new HttpError(409, `Commit prefix ${ref} is ambiguous`);
  }
  throw notFound(`Commit ${ref}`);
}

/** Without include_model, a prompt saved with its model comes back as the prompt alone. */
function stripModel(manifest: any): any {
  const id: unknown = manifest?.id;
  if (Array.isArray(id) && id[id.length - 1] === 'RunnableSequence' && manifest?.kwargs?.first) return manifest.kwargs.first;
  if (Array.isArray(id) && id[id.length - 1] === 'PromptPlayground' && manifest?.kwargs?.first) return manifest.kwargs.first;
  return manifest;
}

function modelOf(manifest: any): { config: any; provider: string | null } | null {
  const id: unknown = manifest?.id;
  if (!(Array.isArray(id) && ['RunnableSequence', 'PromptPlayground'].includes(String(id[id.length - 1])))) return null;
  const last = manifest?.kwargs?.last ?? manifest?.kwargs?.middle?.at?.(-1);
  if (!last) return null;
  const lastId = Array.isArray(last.id) ? String(last.id[last.id.length - 1]) : null;
  return { config: last.kwargs ?? null, provider: lastId };
}

const CreateRepo = z.strictObject({
  repo_handle: z.string().min(1).regex(HANDLE_RE, 'use letters, digits, -, _ and .'),
  description: z.string().optional().nullable(),
  readme: z.string().optional().nullable(),
  tags: z.array(z.string()).optional().nullable(),
  is_public: z.boolean().optional().nullable(),
  repo_type: z.string().optional().nullable(),
});
const UpdateRepo = z.strictObject({
  description: z.string().optional().nullable(),
  readme: z.string().optional().nullable(),
  tags: z.array(z.string()).optional().nullable(),
  is_public: z.boolean().optional().nullable(),
  is_archived: z.boolean().optional().nullable(),
});
const CreateCommit = z.strictObject({
  manifest: z.record(z.string(), z.any()),
  parent_commit: z.string().optional().nullable(),
  description: z.string().optional().nullable(),
  examples: z.array(z.any()).optional().nullable(),
});
const CreateTag = z.strictObject({ tag_name: z.string().min(1), commit_id: z.string().uuid() });
const UpdateTag = z.strictObject({ commit_id: z.string().uuid() });
const LikeBody = z.strictObject({ like: z.boolean() });

const ownerRepo = (req: FastifyRequest) => {
  const p = req.params as any;
  return { owner: String(p.owner), repo: String(p.repo) };
};

export function createCommit(ctx: Ctx, repo: RepoRow, manifest: unknown, parentRef: string | null | undefined, description?: string | null): CommitRow {
  const latest = ctx.st.one<CommitRow>('SELECT * FROM commits WHERE repo_id = ? ORDER BY seq DESC LIMIT 1', repo.id);
  let parent: CommitRow | undefined = latest;
  if (parentRef && parentRef !== 'latest') parent = findCommit(ctx, repo.id, parentRef);
  const canonical = canonicalJson(manifest);
  if (latest && latest.manifest_canonical === canonical) throw conflict('Nothing to commit: the manifest is identical to the latest commit');
  const now = ctx.clock.next(REPO_CLOCK);
  const hash = crypto.createHash('sha256').update(`${parent?.commit_hash ?? ''}\n${canonical}\n${now}\n${crypto.randomUUID()}`).digest('hex');
  const id = newId();
  ctx.st.run(
    'INSERT INTO commits (id, repo_id, commit_hash, parent_id, manifest, manifest_canonical, description, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    id, repo.id, hash, parent?.id ?? null, JSON.stringify(manifest), canonical, description ?? null, now,
  );
  ctx.st.run('UPDATE repos SET updated_at = ? WHERE id = ?', now, repo.id);
  return ctx.st.one<CommitRow>('SELECT * FROM commits WHERE id = ?', id)!;
}

export function insertRepo(ctx: Ctx, tenant: Tenant, b: z.infer<typeof CreateRepo>): RepoRow {
  if (ctx.st.one('SELECT 1 FROM repos WHERE tenant_id = ? AND repo_handle = ?', tenant.id, b.repo_handle))
    throw conflict(`Repo ${tenant.handle}/${b.repo_handle} already exists`);
  const now = ctx.clock.next(REPO_CLOCK);
  const id = newId();
  ctx.st.run(
    'INSERT INTO repos (id, tenant_id, repo_handle, description, readme, tags, is_public, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    id, tenant.id, b.repo_handle, b.description ?? null, b.readme ?? null, JSON.stringify(b.tags ?? []), b.is_public ? 1 : 0, now, now,
  );
  return ctx.st.one<RepoRow>('SELECT * FROM repos WHERE id = ?', id)!;
}

const SORT_FIELDS: Record<string, string> = {
  updated_at: 'r.updated_at', created_at: 'r.created_at', num_likes: 'num_likes', num_downloads: 'r.num_downloads',
  num_views: 'r.num_views', repo_handle: 'r.repo_handle',
};

export function registerPrompts(app: FastifyInstance, ctx: Ctx) {
  app.get('/repos', async (req) => {
    const q = req.query as Record<string, unknown>;
    const where: string[] = [];
    const params: unknown[] = [];
    const isPublic = queryBool(q, 'is_public');
    const tenantHandle = queryString(q, 'tenant_handle');
    if (tenantHandle && tenantHandle !== '-') {
      const t = ownerTenant(ctx, req.tenant, tenantHandle);
      where.push('r.tenant_id = ?');
      params.push(t.id);
      if (t.id !== req.tenant.id) where.push('r.is_public = 1');
    } else if (isPublic === true) {
      // Public prompts of every tenant.
    } else {
      where.push('r.tenant_id = ?');
      params.push(req.tenant.id);
    }
    if (isPublic !== undefined) {
      where.push('r.is_public = ?');
      params.push(isPublic ? 1 : 0);
    }
    const archived = queryBool(q, 'is_archived');
    if (archived !== undefined) {
      where.push('r.is_archived = ?');
      params.push(archived ? 1 : 0);
    }
    const query = queryString(q, 'query');
    if (query) {
      where.push("(r.repo_handle LIKE ? ESCAPE '\\' OR r.description LIKE ? ESCAPE '\\')");
      const like = `%${query.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
      params.push(like, like);
    }
    const tags = queryList(q, 'tags');
    for (const t of tags) {
      where.push('EXISTS (SELECT 1 FROM json_each(r.tags) WHERE value = ?)');
      params.push(t);
    }
    const sortField = queryString(q, 'sort_field') ?? 'updated_at';
    const sortCol = SORT_FIELDS[sortField];
    if (!sortCol) throw new HttpError(422, `sort_field: must be one of ${Object.keys(SORT_FIELDS).join(', ')}`);
    const dirRaw = (queryString(q, 'sort_direction') ?? 'desc').toLowerCase();
    if (dirRaw !== 'asc' && dirRaw !== 'desc') throw new HttpError(422, 'sort_direction: must be asc or desc');
    const limit = queryInt(q, 'limit', 20, 1, 100);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = ctx.st.one<{ n: number }>(`SELECT COUNT(*) AS n FROM repos r ${whereSql}`, ...params)!.n;
    const rows = ctx.st.all<RepoRow>(
      `SELECT r.*, (SELECT COUNT(*) FROM repo_likes l WHERE l.repo_id = r.id) AS num_likes FROM repos r ${whereSql}
        ORDER BY ${sortCol} ${dirRaw.toUpperCase()}, r.id LIMIT ? OFFSET ?`,
      ...params, limit, offset,
    );
    const stats = repoStats(ctx, req.tenant, rows.map((r) => r.id));
    return { repos: rows.map((r) => repoOut(ctx, req.tenant, r, stats.get(r.id))), total };
  });

  app.post('/repos', async (req, reply) => {
    const b = parseBody(CreateRepo, parseMaybeJson(req.body));
    const r = ctx.st.tx(() => insertRepo(ctx, req.tenant, b));
    reply.code(201);
    return { repo: repoOut(ctx, req.tenant, r) };
  });

  app.get('/repos/:owner/:repo', async (req) => {
    const { owner, repo } = ownerRepo(req);
    const r = readableRepo(ctx, req.tenant, owner, repo).repo;
    return { repo: repoOut(ctx, req.tenant, r) };
  });

  app.patch('/repos/:owner/:repo', async (req) => {
    const { owner, repo } = ownerRepo(req);
    const b = parseBody(UpdateRepo, parseMaybeJson(req.body));
    if (Object.values(b).every((v) => v === undefined)) throw new HttpError(422, 'No valid update options provided');
    return ctx.st.tx(() => {
      const r = ownRepo(ctx, req.tenant, owner, repo, 'update a prompt');
      ctx.st.run(
        `UPDATE repos SET description = COALESCE(?, description), readme = COALESCE(?, readme), tags = COALESCE(?, tags),
           is_public = COALESCE(?, is_public), is_archived = COALESCE(?, is_archived), updated_at = ? WHERE id = ?`,
        b.description ?? null, b.readme ?? null, b.tags ? JSON.stringify(b.tags) : null,
        b.is_public == null ? null : b.is_public ? 1 : 0, b.is_archived == null ? null : b.is_archived ? 1 : 0, ctx.clock.next(REPO_CLOCK), r.id,
      );
      return { repo: repoOut(ctx, req.tenant, ctx.st.one<RepoRow>('SELECT * FROM repos WHERE id = ?', r.id)!) };
    });
  });

  app.delete('/repos/:owner/:repo', async (req) => {
    const { owner, repo } = ownerRepo(req);
    ctx.st.tx(() => {
      const r = ownRepo(ctx, req.tenant, owner, repo, 'delete a prompt');
      for (const t of ['commits', 'repo_tags', 'repo_likes']) ctx.st.run(`DELETE FROM ${t} WHERE repo_id = ?`, r.id);
      ctx.st.run('DELETE FROM repos WHERE id = ?', r.id);
    });
    return {};
  });

  // Commits
  app.get('/commits/:owner/:repo', async (req) => {
    const { owner, repo } = ownerRepo(req);
    const { repo: r, tenant } = readableRepo(ctx, req.tenant, owner, repo);
    const q = req.query as Record<string, unknown>;
    const limit = queryInt(q, 'limit', 100, 1, 100);
    const offset = queryInt(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const total = ctx.st.one<{ n: number }>('SELECT COUNT(*) AS n FROM commits WHERE repo_id = ?', r.id)!.n;
    const rows = ctx.st.all<CommitRow>('SELECT * FROM commits WHERE repo_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?', r.id, limit, offset);
    return { commits: rows.map((c) => commitOut(ctx, c, `${tenant.handle}/${r.repo_handle}`)), total };
  });

  app.post('/commits/:owner/:repo', async (req, reply) => {
    const { owner, repo } = ownerRepo(req);
    const b = parseBody(CreateCommit, parseMaybeJson(req.body));
    const out = ctx.st.tx(() => {
      const r = ownRepo(ctx, req.tenant, owner, repo, 'create a commit');
      const c = createCommit(ctx, r, b.manifest, b.parent_commit, b.description);
      return { commit: commitOut(ctx, c, `${req.tenant.handle}/${r.repo_handle}`) };
    });
    reply.code(201);
    return out;
  });

  app.get('/commits/:owner/:repo/:ref', async (req) => {
    const { owner, repo } = ownerRepo(req);
    const ref = String((req.params as any).ref);
    const { repo: r } = readableRepo(ctx, req.tenant, owner, repo);
    const c = findCommit(ctx, r.id, ref);
    const includeModel = queryBool(req.query as any, 'include_model') ?? false;
    const manifest = JSON.parse(c.manifest);
    ctx.st.run('UPDATE repos SET num_downloads = num_downloads + 1 WHERE id = ?', r.id);
    const model = includeModel ? modelOf(manifest) : null;
    return {
      commit_hash: c.commit_hash,
      manifest: includeModel ? manifest : stripModel(manifest),
      examples: jsonOrNull(c.examples) ?? [],
      ...(model ? { model_config: model.config, model_provider: model.provider } : {}),
    };
  });

  // Commit tags
  const tagOut = (t: any) => ({
    id: t.id, repo_id: t.repo_id, commit_id: t.commit_id, commit_hash: t.commit_hash, tag_name: t.tag_name, created_at: t.created_at, updated_at: t.updated_at,
  });
  const tagRow = (repoId: string, name: string) =>
    ctx.st.one('SELECT t.*, c.commit_hash FROM repo_tags t JOIN commits c ON c.id = t.commit_id WHERE t.repo_id = ? AND t.tag_name = ?', repoId, name);
  const commitInRepo = (repoId: string, commitId: string) => {
    const c = ctx.st.one<CommitRow>('SELECT * FROM commits WHERE id = ? AND repo_id = ?', commitId.toLowerCase(), repoId);
    if (!c) throw notFound(`Commit ${commitId}`);
    return c;
  };
  app.get('/repos/:owner/:repo/tags', async (req) => {
    const { owner, repo } = ownerRepo(req);
    const { repo: r } = readableRepo(ctx, req.tenant, owner, repo);
    return ctx.st
      .all('SELECT t.*, c.commit_hash FROM repo_tags t JOIN commits c ON c.id = t.commit_id WHERE t.repo_id = ? ORDER BY t.tag_name', r.id)
      .map(tagOut);
  });
  app.post('/repos/:owner/:repo/tags', async (req, reply) => {
    const { owner, repo } = ownerRepo(req);
    const b = parseBody(CreateTag, parseMaybeJson(req.body));
    const out = ctx.st.tx(() => {
      const r = ownRepo(ctx, req.tenant, owner, repo, 'create a tag');
      commitInRepo(r.id, b.commit_id);
      if (b.tag_name === 'latest' || /^[0-9a-f]{8,}$/i.test(b.tag_name)) throw new HttpError(422, `tag_name: "${b.tag_name}" would be read as a commit reference`);
      if (tagRow(r.id, b.tag_name)) throw conflict(`Tag ${b.tag_name} already exists`);
      const now = nowIso();
      ctx.st.run('INSERT INTO repo_tags (id, repo_id, tag_name, commit_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', newId(), r.id, b.tag_name, b.commit_id.toLowerCase(), now, now);
      return tagOut(tagRow(r.id, b.tag_name));
    });
    reply.code(201);
    return out;
  });
  app.get('/repos/:owner/:repo/tags/:tag', async (req) => {
    const { owner, repo } = ownerRepo(req);
    const { repo: r } = readableRepo(ctx, req.tenant, owner, repo);
    const t = tagRow(r.id, String((req.params as any).tag));
    if (!t) throw notFound(`Tag ${(req.params as any).tag}`);
    return tagOut(t);
  });
  app.patch('/repos/:owner/:repo/tags/:tag', async (req) => {
    const { owner, repo } = ownerRepo(req);
    const b = parseBody(UpdateTag, parseMaybeJson(req.body));
    const name = String((req.params as any).tag);
    return ctx.st.tx(() => {
      const r = ownRepo(ctx, req.tenant, owner, repo, 'move a tag');
      if (!tagRow(r.id, name)) throw notFound(`Tag ${name}`);
      commitInRepo(r.id, b.commit_id);
      ctx.st.run('UPDATE repo_tags SET commit_id = ?, updated_at = ? WHERE repo_id = ? AND tag_name = ?', b.commit_id.toLowerCase(), nowIso(), r.id, name);
      return tagOut(tagRow(r.id, name));
    });
  });
  app.delete('/repos/:owner/:repo/tags/:tag', async (req) => {
    const { owner, repo } = ownerRepo(req);
    const name = String((req.params as any).tag);
    const r = ownRepo(ctx, req.tenant, owner, repo, 'delete a tag');
    const res = ctx.st.run('DELETE FROM repo_tags WHERE repo_id = ? AND tag_name = ?', r.id, name);
    if (!res.changes) throw notFound(`Tag ${name}`);
    return {};
  });

  app.post('/likes/:owner/:repo', async (req) => {
    const { owner, repo } = ownerRepo(req);
    const b = parseBody(LikeBody, parseMaybeJson(req.body));
    return ctx.st.tx(() => {
      const { repo: r } = readableRepo(ctx, req.tenant, owner, repo);
      if (b.like) ctx.st.run('INSERT OR IGNORE INTO repo_likes (repo_id, tenant_id) VALUES (?, ?)', r.id, req.tenant.id);
      else ctx.st.run('DELETE FROM repo_likes WHERE repo_id = ? AND tenant_id = ?', r.id, req.tenant.id);
      return { likes: ctx.st.one<{ n: number }>('SELECT COUNT(*) AS n FROM repo_likes WHERE repo_id = ?', r.id)!.n };
    });
  });
}
