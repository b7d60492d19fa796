// Prompt hub routes: repos, commits (pull by hash, prefix, tag or latest), commit tags, likes. The store
// (../store/prompts) owns the SQL and the tenant rules; this file parses input and shapes LangSmith's answers.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx, Tenant } from '../context';
import { pText, qBool, qEnum, qInt, qList, qText, route, uuid } from '../route';
import {
  REPO_SORT_FIELDS, countPull, createRepo, createTag, deleteRepo, deleteTag, findCommit, getTag, listCommits, listRepos, listTags,
  moveTag, parentHash, pushCommit, readableRepo, repoStats, repoTagNames, setLike, tagHistory, updateRepo,
  type CommitRow, type RepoRow, type RepoStats, type TagRow, type TransitionRow,
} from '../store/prompts';
import { HttpError } from '../errors';
import { jsonOrNull } from '../json';

const HANDLE_RE = /^[a-z0-9][a-z0-9_.-]*$/i;

function repoOut(ctx: Ctx, caller: Tenant, r: RepoRow, stats?: RepoStats) {
  const tenant = ctx.tenantById.get(r.tenant_id);
  const s = stats ?? repoStats(ctx, caller, [r.id]).get(r.id)!;
  return {
    id: r.id,
    repo_handle: r.repo_handle,
    owner: tenant?.handle ?? null,
    full_name: `${tenant?.handle ?? '-'}/${r.repo_handle}`,
    tenant_id: r.tenant_id,
    description: r.description,
    readme: r.readme,
    tags: JSON.parse(r.tags) as string[],
    is_public: !!r.is_public,
    is_archived: !!r.is_archived,
    created_at: r.created_at,
    updated_at: r.updated_at,
    num_likes: s.num_likes,
    num_downloads: r.num_downloads,
    num_views: r.num_views,
    liked_by_auth_user: s.liked,
    last_commit_hash: s.last_hash,
    num_commits: s.num_commits,
    commit_tags: repoTagNames(ctx, r.id),
    original_repo_id: null,
    upstream_repo_id: null,
    original_repo_full_name: null,
    upstream_repo_full_name: null,
    repo_type: 'prompt',
    restricted_mode: false,
    source: null,
    created_by: null,
    // LangSmith answers every field of a repo, null when unset; the latest manifest is filled only when a
    // listing asks for it (`with_latest_manifest`).
    latest_commit_manifest: s.latest ? { commit_hash: s.latest.commit_hash, manifest: JSON.parse(s.latest.manifest) as unknown } : null,
  };
}

function commitOut(ctx: Ctx, c: CommitRow, fullName: string) {
  return {
    id: c.id,
    commit_hash: c.commit_hash,
    parent_id: c.parent_id,
    parent_commit_hash: parentHash(ctx, c),
    repo_id: c.repo_id,
    full_name: fullName,
    manifest: JSON.parse(c.manifest) as unknown,
    description: c.description,
    examples: jsonOrNull(c.examples) ?? [],
    created_at: c.created_at,
    num_downloads: 0,
    num_views: 0,
  };
}

const tagOut = (t: TagRow) => ({
  id: t.id, repo_id: t.repo_id, commit_id: t.commit_id, commit_hash: t.commit_hash, tag_name: t.tag_name, created_at: t.created_at, updated_at: t.updated_at,
});

function transitionOut(ctx: Ctx, t: TransitionRow) {
  const name = ctx.tenantById.get(t.performed_by)?.displayName;
  return {
    id: t.id,
    repo_id: t.repo_id,
    tag_name: t.tag_name,
    ...(t.from_commit_id ? { from_commit_id: t.from_commit_id, from_commit_hash: t.from_commit_hash ?? undefined } : {}),
    ...(t.to_commit_id ? { to_commit_id: t.to_commit_id, to_commit_hash: t.to_commit_hash ?? undefined } : {}),
    performed_by: t.performed_by,
    ...(name ? { performed_by_name: name } : {}),
    created_at: t.created_at,
  };
}

// ---- models saved with a prompt --------------------------------------------------------------------------------

/** A LangChain serialized object, as far as these routes look into one. */
interface Serialized {
  id?: unknown;
  kwargs?: { first?: unknown; last?: Serialized; middle?: Serialized[] } & Record<string, unknown>;
}

const asSerialized = (v: unknown): Serialized | undefined => (v && typeof v === 'object' ? (v as Serialized) : undefined);
const lastId = (v: Serialized | undefined) => (Array.isArray(v?.id) ? String(v.id[v.id.length - 1]) : undefined);
/** The wrappers that pair a prompt (`first`) with its model (`last`). */
const isWithModel = (m: Serialized | undefined) => ['RunnableSequence', 'PromptPlayground'].includes(lastId(m) ?? '');

/** Without include_model, a prompt saved with its model comes back as the prompt alone. */
function stripModel(manifest: unknown): unknown {
  const m = asSerialized(manifest);
  return isWithModel(m) && m?.kwargs?.first ? m.kwargs.first : manifest;
}

function modelOf(manifest: unknown): { config: unknown; provider: string | null } | null {
  const m = asSerialized(manifest);
  if (!isWithModel(m)) return null;
  const last = m?.kwargs?.last ?? m?.kwargs?.middle?.at(-1);
  if (!last) return null;
  return { config: last.kwargs ?? null, provider: lastId(last) ?? null };
}

// ---- schemas ---------------------------------------------------------------------------------------------------

const OwnerRepo = z.object({ owner: pText(), repo: pText() });
const TagParams = OwnerRepo.extend({ tag: pText() });
const CommitParams = OwnerRepo.extend({ ref: pText() });

const CreateRepo = z.strictObject({
  repo_handle: z.string().min(1).regex(HANDLE_RE, 'use letters, digits, -, _ and .'),
  description: z.string().nullish(),
  readme: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  is_public: z.boolean().nullish(),
  // Accepted as LangSmith's CreateRepoRequest has them; every repo here is a prompt without restrictions.
  repo_type: z.string().nullish(),
  source: z.string().nullish(),
  restricted_mode: z.boolean().nullish(),
});
const UpdateRepo = z.strictObject({
  description: z.string().nullish(),
  readme: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  is_public: z.boolean().nullish(),
  is_archived: z.boolean().nullish(),
  restricted_mode: z.boolean().nullish(),
});
const CreateCommit = z.strictObject({
  manifest: z.record(z.string(), z.unknown()),
  parent_commit: z.string().nullish(),
  description: z.string().nullish(),
  examples: z.array(z.unknown()).nullish(),
  skip_webhooks: z.union([z.boolean(), z.array(z.string())]).nullish(),
});
const CreateTag = z.strictObject({ tag_name: z.string().min(1), commit_id: uuid(), skip_webhooks: z.union([z.boolean(), z.array(z.string())]).nullish() });
const UpdateTag = z.strictObject({ commit_id: uuid(), skip_webhooks: z.union([z.boolean(), z.array(z.string())]).nullish() });
const LikeBody = z.strictObject({ like: z.boolean() });

const ListRepos = z.object({
  tenant_handle: qText(),
  tenant_id: z.preprocess((v) => (v === '' ? undefined : v), uuid().optional()),
  is_public: qBool(),
  // LangSmith takes 'allow' for archived and not archived alike.
  is_archived: qText()
    .refine((v) => v === undefined || /^(true|false|1|0|allow)$/i.test(v), 'must be true, false or allow')
    .transform((v) => (v === undefined ? undefined : /^allow$/i.test(v) ? ('allow' as const) : /^(true|1)$/i.test(v))),
  query: qText(),
  tags: qList(),
  has_commits: qBool(),
  repo_type: qText(),
  repo_types: qList(),
  with_latest_manifest: qBool(),
  sort_field: qEnum(REPO_SORT_FIELDS),
  sort_direction: qText()
    .refine((v) => v === undefined || /^(asc|desc)$/i.test(v), 'must be asc or desc')
    .transform((v) => (v?.toLowerCase() ?? 'desc') as 'asc' | 'desc'),
  limit: qInt(20, 1, 100),
  offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
});
const ListCommits = z.object({
  limit: qInt(20, 1, 100),
  offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
  tag: qText(),
  include_stats: qBool(),
});
const PullCommit = z.object({ include_model: qBool(), is_view: qBool(), get_examples: qBool(), include: qText() });

export function registerPrompts(app: FastifyInstance, ctx: Ctx) {
  route(app, 'GET', '/repos', { query: ListRepos }, ({ query: q, tenant }) => {
    const withLatest = q.with_latest_manifest ?? false;
    const { rows, total } = listRepos(ctx, tenant, {
      tenantHandle: q.tenant_handle,
      tenantId: q.tenant_id,
      isPublic: q.is_public,
      isArchived: q.is_archived,
      query: q.query,
      tags: q.tags,
      hasCommits: q.has_commits,
      repoTypes: [...q.repo_types, ...(q.repo_type ? [q.repo_type] : [])],
      sortField: q.sort_field ?? 'updated_at',
      sortDirection: q.sort_direction,
      limit: q.limit,
      offset: q.offset,
    });
    const stats = repoStats(ctx, tenant, rows.map((r) => r.id), withLatest);
    return { repos: rows.map((r) => repoOut(ctx, tenant, r, stats.get(r.id))), total };
  });

  // A new repo is a 200 in LangSmith (its OpenAPI), like a new tag; only commits (another service there) are 201.
  route(app, 'POST', '/repos', { body: CreateRepo }, ({ body, tenant }) => ({ repo: repoOut(ctx, tenant, createRepo(ctx, tenant, body)) }));

  route(app, 'GET', '/repos/:owner/:repo', { params: OwnerRepo }, ({ params, tenant }) => ({
    repo: repoOut(ctx, tenant, readableRepo(ctx, tenant, params.owner, params.repo).repo),
  }));

  route(app, 'PATCH', '/repos/:owner/:repo', { params: OwnerRepo, body: UpdateRepo }, ({ params, body, tenant }) => {
    const { restricted_mode: _ignored, ...changes } = body;
    if (Object.values(changes).every((v) => v === undefined)) throw new HttpError(422, 'No valid update options provided');
    return { repo: repoOut(ctx, tenant, updateRepo(ctx, tenant, params.owner, params.repo, changes)) };
  });

  route(app, 'DELETE', '/repos/:owner/:repo', { params: OwnerRepo }, ({ params, tenant }) => {
    deleteRepo(ctx, tenant, params.owner, params.repo);
    return {};
  });

  // Commits
  route(app, 'GET', '/commits/:owner/:repo', { params: OwnerRepo, query: ListCommits }, ({ params, query, tenant }) => {
    const { repo, tenant: owner } = readableRepo(ctx, tenant, params.owner, params.repo);
    const { rows, total } = listCommits(ctx, repo.id, query);
    return { commits: rows.map((c) => commitOut(ctx, c, `${owner.handle}/${repo.repo_handle}`)), total };
  });

  route(app, 'POST', '/commits/:owner/:repo', { params: OwnerRepo, body: CreateCommit }, ({ params, body, tenant, reply }) => {
    const { commit, repo } = pushCommit(ctx, tenant, params.owner, params.repo, body);
    reply.code(201);
    return { commit: commitOut(ctx, commit, `${tenant.handle}/${repo.repo_handle}`) };
  });

  route(app, 'GET', '/commits/:owner/:repo/:ref', { params: CommitParams, query: PullCommit }, ({ params, query, tenant }) => {
    const { repo } = readableRepo(ctx, tenant, params.owner, params.repo);
    const c = findCommit(ctx, repo.id, params.ref);
    countPull(ctx, repo.id, query.is_view ?? false);
    const manifest = JSON.parse(c.manifest) as unknown;
    const model = query.include_model ? modelOf(manifest) : null;
    return {
      commit_hash: c.commit_hash,
      manifest: query.include_model ? manifest : stripModel(manifest),
      examples: jsonOrNull(c.examples) ?? [],
      // LangSmith leaves the model fields out when the prompt has no model (not null).
      ...(model ? { model_config: model.config, model_provider: model.provider } : {}),
    };
  });

  // Commit tags
  route(app, 'GET', '/repos/:owner/:repo/tags', { params: OwnerRepo }, ({ params, tenant }) =>
    listTags(ctx, readableRepo(ctx, tenant, params.owner, params.repo).repo.id).map(tagOut),
  );
  // LangSmith answers a new tag with 200 (its OpenAPI), not 201.
  route(app, 'POST', '/repos/:owner/:repo/tags', { params: OwnerRepo, body: CreateTag }, ({ params, body, tenant }) =>
    tagOut(createTag(ctx, tenant, params.owner, params.repo, body.tag_name, body.commit_id)),
  );
  route(app, 'GET', '/repos/:owner/:repo/tags/:tag', { params: TagParams }, ({ params, tenant }) =>
    tagOut(getTag(ctx, readableRepo(ctx, tenant, params.owner, params.repo).repo.id, params.tag)),
  );
  route(app, 'PATCH', '/repos/:owner/:repo/tags/:tag', { params: TagParams, body: UpdateTag }, ({ params, body, tenant }) =>
    tagOut(moveTag(ctx, tenant, params.owner, params.repo, params.tag, body.commit_id)),
  );
  route(app, 'DELETE', '/repos/:owner/:repo/tags/:tag', { params: TagParams }, ({ params, tenant }) => {
    deleteTag(ctx, tenant, params.owner, params.repo, params.tag);
    return {};
  });

  // The audit log of a tag. LangSmith's entries leave out what is unset (a created tag has no `from_commit_*`,
  // a deleted one no `to_commit_*`) and name who made the change; here that is the workspace.
  route(
    app, 'GET', '/repos/:owner/:repo/tags/:tag/history',
    { params: TagParams, query: z.object({ limit: qInt(50, 1, 100), offset: qInt(0, 0, Number.MAX_SAFE_INTEGER) }) },
    ({ params, query, tenant }) => {
      const { repo } = readableRepo(ctx, tenant, params.owner, params.repo);
      const { rows, total } = tagHistory(ctx, repo.id, params.tag, query.limit, query.offset);
      return { transitions: rows.map((t) => transitionOut(ctx, t)), total };
    },
  );

  route(app, 'POST', '/likes/:owner/:repo', { params: OwnerRepo, body: LikeBody }, ({ params, body, tenant }) => ({
    likes: setLike(ctx, tenant, params.owner, params.repo, body.like),
  }));
}
