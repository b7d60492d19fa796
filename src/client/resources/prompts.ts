import { ClientContext } from '../context';
import { LangSmithError, LangSmithValidationError, isConflict, type LangSmithErrorInit } from '../errors';
import { assertUuid, parsePromptIdentifier, type PromptRef } from '../ids';
import { promptUrl } from '../links';
import { MSG } from '../messages';
import { offsetPaged } from '../paging';
import {
  CommitEnvelopeSchema,
  LikesSchema,
  ListCommitsSchema,
  ListReposSchema,
  PromptCommitSchema,
  PromptRepoSchema,
  PromptTagSchema,
  type PromptTag,
  RepoEnvelopeSchema,
  type Commit,
  type PromptRepo,
} from '../schemas';
import * as z from 'zod';
import { compact } from './common';

export interface PromptListOptions {
  isPublic?: boolean;
  /** Default false: archived prompts are left out. */
  isArchived?: boolean;
  /** Default 'updated_at'. */
  sortField?: 'updated_at' | 'num_likes' | 'num_downloads' | 'num_views' | 'created_at' | (string & {});
  /** Default 'desc'. */
  sortDirection?: 'asc' | 'desc';
  query?: string;
  limit?: number;
  signal?: AbortSignal;
}

export interface PromptAttributes {
  description?: string;
  readme?: string;
  tags?: string[];
  isPublic?: boolean;
}

export interface PulledCommit {
  owner: string;
  repo: string;
  commit_hash: string;
  manifest: unknown;
  examples: unknown[];
  model_config?: unknown;
  model_provider?: unknown;
}

export interface CommitCreated {
  commit_hash: string;
  commit: Commit;
  url: string;
}

const repoOrEnvelope = z.union([RepoEnvelopeSchema, PromptRepoSchema]).transform((r) => ('repo' in r && r.repo && typeof r.repo === 'object' ? (r.repo as PromptRepo) : (r as PromptRepo)));

export class PromptsResource {
  constructor(private readonly ctx: ClientContext) {}

  private path(ref: PromptRef): string {
    return `${encodeURIComponent(ref.owner)}/${encodeURIComponent(ref.repo)}`;
  }

  /** Whether the owner is the caller's tenant: '-' always is; another handle is compared with /settings. */
  private async isOwn(owner: string, signal?: AbortSignal): Promise<boolean> {
    if (owner === '-') return true;
    const settings = await this.ctx.settings(signal);
    return settings.tenant_handle === owner;
  }

  private async assertOwner(action: string, owner: string, signal?: AbortSignal): Promise<void> {
    if (await this.isOwn(owner, signal)) return;
    const settings = await this.ctx.settings(signal);
    throw new LangSmithValidationError(MSG.otherTenant(action, settings.tenant_handle, owner));
  }

  list(o: PromptListOptions = {}): AsyncGenerator<PromptRepo, void, undefined> {
    return offsetPaged(
      async (offset, limit) =>
        (
          await this.ctx.http.request({
            path: '/repos',
            query: {
              sort_field: o.sortField ?? 'updated_at',
              sort_direction: o.sortDirection ?? 'desc',
              is_archived: o.isArchived ?? false,
              is_public: o.isPublic,
              query: o.query,
              offset,
              limit,
            },
            action: 'list prompts',
            schema: ListReposSchema,
            signal: o.signal,
          })
        ).repos,
      { pageSize: 100, limit: o.limit },
    );
  }

  /** The prompt repository, or null when there is none (404). */
  async get(identifier: string, o: { signal?: AbortSignal } = {}): Promise<PromptRepo | null> {
    const ref = parsePromptIdentifier(identifier);
    const res = await this.ctx.http.request({
      path: `/repos/${this.path(ref)}`,
      action: 'get prompt',
      schema: repoOrEnvelope,
      nullOn404: true,
      signal: o.signal,
    });
    return res ?? null;
  }

  async exists(identifier: string, o: { signal?: AbortSignal } = {}): Promise<boolean> {
    return (await this.get(identifier, o)) !== null;
  }

  async create(identifier: string, o: PromptAttributes & { signal?: AbortSignal } = {}): Promise<PromptRepo> {
    const ref = parsePromptIdentifier(identifier);
    if (o.isPublic) {
      const settings = await this.ctx.settings(o.signal);
      if (!settings.tenant_handle) throw new LangSmithValidationError(MSG.publicPromptNeedsHandle);
    }
    await this.assertOwner('create a prompt', ref.owner, o.signal);
    return this.createRepo(ref, o);
  }

  /**
   * Creates the repository. Repeated like an idempotent request: when a repeat meets "already exists", the
   * repository our earlier attempt made (an empty one, no commit yet) is read back as ours.
   */
  private async createRepo(ref: PromptRef, o: PromptAttributes & { signal?: AbortSignal }): Promise<PromptRepo> {
    let repeated = false;
    try {
      return await this.ctx.http.request({
        method: 'POST',
        path: '/repos/',
        json: compact({ repo_handle: ref.repo, description: o.description, readme: o.readme, tags: o.tags, is_public: !!o.isPublic }),
        action: 'create prompt',
        schema: repoOrEnvelope,
        signal: o.signal,
        idempotent: true,
        onRetry: () => (repeated = true),
      });
    } catch (e) {
      if (!repeated || !isConflict(e)) throw e;
      const repo = await this.get(`${ref.owner}/${ref.repo}`, o);
      const commits = repo?.num_commits ?? 0;
      if (!repo || commits > 0) throw e;
      return repo;
    }
  }

  async update(
    identifier: string,
    o: PromptAttributes & { isArchived?: boolean; signal?: AbortSignal },
  ): Promise<PromptRepo> {
    const payload = compact({
      description: o.description,
      readme: o.readme,
      tags: o.tags,
      is_public: o.isPublic,
      is_archived: o.isArchived,
    });
    if (Object.keys(payload).length === 0) throw new LangSmithValidationError(MSG.noValidUpdateOptions);
    const ref = parsePromptIdentifier(identifier);
    await this.assertOwner('update a prompt', ref.owner, o.signal);
    if (o.isPublic) {
      const settings = await this.ctx.settings(o.signal);
      if (!settings.tenant_handle) throw new LangSmithValidationError(MSG.publicPromptNeedsHandle);
    }
    const res = await this.ctx.http.request({
      method: 'PATCH',
      path: `/repos/${this.path(ref)}`,
      json: payload,
      action: 'update prompt',
      schema: repoOrEnvelope,
      idempotent: true,
      nullOn404: true,
      signal: o.signal,
    });
    if (!res) throw new LangSmithValidationError(MSG.promptMissing);
    return res;
  }

  async delete(identifier: string, o: { signal?: AbortSignal } = {}): Promise<void> {
    const ref = parsePromptIdentifier(identifier);
    await this.assertOwner('delete a prompt', ref.owner, o.signal);
    const res = await this.ctx.http.request({
      method: 'DELETE',
      path: `/repos/${this.path(ref)}`,
      action: 'delete prompt',
      responseType: 'text',
      nullOn404: true,
      signal: o.signal,
    });
    if (res === null) throw new LangSmithValidationError(MSG.promptMissing);
  }

  /**
   * The latest commit's hash, or undefined when the prompt has no commits. A failure raises
   * `Error {status}: {statusText}` with the server's detail, keeping the status.
   */
  async latestCommitHash(identifier: string, o: { signal?: AbortSignal } = {}): Promise<string | undefined> {
    const ref = parsePromptIdentifier(identifier);
    let res;
    try {
      res = await this.ctx.http.request({
        path: `/commits/${this.path(ref)}/`,
        query: { limit: 1, offset: 0 },
        action: 'get latest commit hash',
        schema: ListCommitsSchema,
        signal: o.signal,
      });
    } catch (e) {
      // Only a refusal is rewrapped; a 2xx answer that could not be used keeps its own message.
      if (e instanceof LangSmithError && e.status !== undefined && (e.status < 200 || e.status > 299)) {
        const Ctor = e.constructor as new (message: string, init: LangSmithErrorInit) => LangSmithError;
        const detail = e.detail ?? MSG.unspecifiedError;
        throw new Ctor(MSG.latestCommitError(e.status, e.statusText ?? '', detail), {
          action: 'get latest commit hash',
          status: e.status,
          statusText: e.statusText,
          detail,
        });
      }
      throw e;
    }
    return res.commits[0]?.commit_hash;
  }

  /**
   * Adds a commit to an existing prompt; the parent defaults to the latest commit. Two requests: the
   * repository read (existence and its latest commit) and the commit itself. With `exists` (the caller has
   * just read the prompt or made it) the repository is not read: one request, on `parentCommitHash` when given,
   * else on what the server holds as the latest commit.
   */
  async createCommit(
    identifier: string,
    manifest: unknown,
    o: { parentCommitHash?: string; description?: string; exists?: boolean; signal?: AbortSignal } = {},
  ): Promise<CommitCreated> {
    const ref = parsePromptIdentifier(identifier);
    // Another tenant's prompt is refused before anything is read: its repository may well be hidden.
    await this.assertOwner('create a commit', ref.owner, o.signal);
    if (o.exists) return this.commit(ref, null, manifest, o);
    const repo = await this.get(identifier, o);
    if (!repo) throw new LangSmithValidationError(MSG.promptMissing);
    return this.commit(ref, repo, manifest, o);
  }

  private async commit(
    ref: PromptRef,
    repo: PromptRepo | null,
    manifest: unknown,
    o: { parentCommitHash?: string; description?: string; signal?: AbortSignal },
  ): Promise<CommitCreated> {
    let parent: string | undefined;
    if (o.parentCommitHash && o.parentCommitHash !== 'latest') parent = o.parentCommitHash;
    else if (repo && 'last_commit_hash' in repo) parent = repo.last_commit_hash ?? undefined;
    else if (repo) parent = await this.latestCommitHash(`${ref.owner}/${ref.repo}`, o);
    const plain = JSON.parse(JSON.stringify(manifest)) as unknown;
    // A commit is repeated like any idempotent request: a repeat of one that landed is refused by the server
    // ("nothing to commit": the manifest is the latest one's), and is then read back as our own commit.
    let repeated = false;
    let res;
    try {
      res = await this.ctx.http.request({
        method: 'POST',
        path: `/commits/${this.path(ref)}`,
        json: compact({ manifest: plain, parent_commit: parent, description: o.description }),
        action: 'create commit',
        schema: CommitEnvelopeSchema,
        signal: o.signal,
        idempotent: true,
        onRetry: () => (repeated = true),
      });
    } catch (e) {
      const own = repeated && isConflict(e) ? await this.landedCommit(ref, plain, parent, o) : undefined;
      if (!own) throw e;
      res = own;
    }
    const commit = ('commit' in res && res.commit && typeof res.commit === 'object' ? res.commit : res) as Commit;
    const url = await this.url(`${ref.owner}/${ref.repo}:${commit.commit_hash}`, o);
    return { commit_hash: commit.commit_hash, commit, url };
  }

  /**
   * After a repeated commit was refused as a conflict: the latest commit, when it is the one our earlier attempt
   * made (the same manifest, on the parent we gave); otherwise undefined and the conflict stands.
   */
  private async landedCommit(ref: PromptRef, manifest: unknown, parent: string | undefined, o: { signal?: AbortSignal }): Promise<Commit | undefined> {
    let latest: Commit | undefined;
    for await (const c of this.listCommits(`${ref.owner}/${ref.repo}`, { limit: 1, signal: o.signal })) {
      latest = c;
      break;
    }
    if (!latest || stableJson(latest.manifest) !== stableJson(manifest)) return undefined;
    const latestParent = latest.parent_commit_hash ?? undefined;
    if (parent !== undefined && latestParent !== undefined && latestParent !== parent) return undefined;
    return latest;
  }

  listCommits(identifier: string, o: { limit?: number; signal?: AbortSignal } = {}): AsyncGenerator<Commit, void, undefined> {
    const ref = parsePromptIdentifier(identifier);
    return offsetPaged(
      async (offset, limit) =>
        (
          await this.ctx.http.request({
            path: `/commits/${this.path(ref)}/`,
            query: { limit, offset },
            action: 'list commits',
            schema: ListCommitsSchema,
            signal: o.signal,
          })
        ).commits,
      { pageSize: 100, limit: o.limit },
    );
  }

  /** GET /commits/{owner}/{repo}/{commit}: the manifest at a commit, tag or 'latest'. */
  async pull(identifier: string, o: { includeModel?: boolean; signal?: AbortSignal } = {}): Promise<PulledCommit> {
    const ref = parsePromptIdentifier(identifier);
    const res = await this.ctx.http.request({
      path: `/commits/${this.path(ref)}/${encodeURIComponent(ref.commit)}`,
      query: { include_model: o.includeModel ? true : undefined },
      action: 'pull prompt commit',
      schema: PromptCommitSchema,
      signal: o.signal,
    });
    return {
      owner: ref.owner,
      repo: ref.repo,
      commit_hash: res.commit_hash,
      manifest: res.manifest,
      examples: res.examples ?? [],
      ...(res.model_config !== undefined ? { model_config: res.model_config } : {}),
      ...(res.model_provider !== undefined ? { model_provider: res.model_provider } : {}),
    };
  }

  /**
   * Creates the prompt when absent, otherwise updates the given attributes; then commits the manifest
   * when one is given, its parent defaulting to the latest commit. Two requests per push when the
   * server reports the repository's latest commit.
   */
  async push(
    identifier: string,
    o: PromptAttributes & { manifest?: unknown; parentCommitHash?: string; signal?: AbortSignal } = {},
  ): Promise<string> {
    const ref = parsePromptIdentifier(identifier);
    await this.assertOwner('push a prompt', ref.owner, o.signal);
    if (o.isPublic) {
      const settings = await this.ctx.settings(o.signal);
      if (!settings.tenant_handle) throw new LangSmithValidationError(MSG.publicPromptNeedsHandle);
    }
    const attrs = compact({ description: o.description, readme: o.readme, tags: o.tags, is_public: o.isPublic });
    let repo: PromptRepo | null;
    let created = false;
    if (Object.keys(attrs).length > 0) {
      repo = await this.ctx.http.request({
        method: 'PATCH',
        path: `/repos/${this.path(ref)}`,
        json: attrs,
        action: 'update prompt',
        schema: repoOrEnvelope,
        idempotent: true,
        nullOn404: true,
        signal: o.signal,
      });
    } else {
      repo = await this.get(`${ref.owner}/${ref.repo}`, o);
    }
    if (!repo) {
      repo = await this.createRepo(ref, o);
      created = true;
    }
    if (o.manifest === undefined) return this.url(`${ref.owner}/${ref.repo}`, o);
    const result = await this.commit(ref, created ? null : repo, o.manifest, o);
    return result.url;
  }

  /** The commit tags of a prompt (name → commit). */
  async listTags(identifier: string, o: { signal?: AbortSignal } = {}): Promise<PromptTag[]> {
    const ref = parsePromptIdentifier(identifier);
    return this.ctx.http.request({
      path: `/repos/${this.path(ref)}/tags`,
      action: 'list prompt tags',
      schema: z.array(PromptTagSchema),
      signal: o.signal,
    });
  }

  /** Names a commit (by its id, as in `listCommits` and `createCommit` answers); a taken name is a conflict. */
  async createTag(identifier: string, o: { tagName: string; commitId: string; signal?: AbortSignal }): Promise<PromptTag> {
    const ref = parsePromptIdentifier(identifier);
    assertUuid(o.commitId, 'commitId');
    await this.assertOwner('create a tag', ref.owner, o.signal);
    return this.ctx.http.request({
      method: 'POST',
      path: `/repos/${this.path(ref)}/tags`,
      json: { tag_name: o.tagName, commit_id: o.commitId },
      action: 'create prompt tag',
      schema: PromptTagSchema,
      signal: o.signal,
    });
  }

  /** Moves an existing tag to another commit. */
  async moveTag(identifier: string, o: { tagName: string; commitId: string; signal?: AbortSignal }): Promise<PromptTag> {
    const ref = parsePromptIdentifier(identifier);
    assertUuid(o.commitId, 'commitId');
    await this.assertOwner('move a tag', ref.owner, o.signal);
    return this.ctx.http.request({
      method: 'PATCH',
      path: `/repos/${this.path(ref)}/tags/${encodeURIComponent(o.tagName)}`,
      json: { commit_id: o.commitId },
      action: 'move prompt tag',
      schema: PromptTagSchema,
      idempotent: true,
      signal: o.signal,
    });
  }

  async deleteTag(identifier: string, tagName: string, o: { signal?: AbortSignal } = {}): Promise<void> {
    const ref = parsePromptIdentifier(identifier);
    await this.assertOwner('delete a tag', ref.owner, o.signal);
    await this.ctx.http.request({
      method: 'DELETE',
      path: `/repos/${this.path(ref)}/tags/${encodeURIComponent(tagName)}`,
      action: 'delete prompt tag',
      responseType: 'none',
      signal: o.signal,
    });
  }

  async like(identifier: string, o: { signal?: AbortSignal } = {}): Promise<{ likes: number }> {
    return this.setLike(identifier, true, o.signal);
  }

  async unlike(identifier: string, o: { signal?: AbortSignal } = {}): Promise<{ likes: number }> {
    return this.setLike(identifier, false, o.signal);
  }

  private async setLike(identifier: string, like: boolean, signal?: AbortSignal): Promise<{ likes: number }> {
    const ref = parsePromptIdentifier(identifier);
    return this.ctx.http.request({
      method: 'POST',
      path: `/likes/${this.path(ref)}`,
      json: { like },
      action: like ? 'like prompt' : 'unlike prompt',
      schema: LikesSchema,
      idempotent: true,
      signal,
    });
  }

  /** The web page of a prompt (spec §2): own tenant under /prompts, another under /hub. */
  async url(identifier: string, o: { signal?: AbortSignal } = {}): Promise<string> {
    const ref = parsePromptIdentifier(identifier);
    const own = await this.isOwn(ref.owner, o.signal);
    const organizationId = own ? (await this.ctx.settings(o.signal)).id : undefined;
    return promptUrl(this.ctx.webUrl, { owner: ref.owner, repo: ref.repo, commit: ref.commit, own, organizationId });
  }
}

/** JSON with object keys in order: two manifests compare equal when they hold the same values. */
function stableJson(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}
