// What LangSmith says about the prompts a source file references: whether each exists (with its tag or commit),
// the version a reference pulls (its messages, commit, tags and time), the own prompts' names and a prompt's tags
// for completion. Plain Node, no vscode: it runs API calls through the function it is given (the extension's
// connection), caches every answer for a short time and batches: the own prompts are one listing for any number
// of names, so a file with twenty references costs one request, not twenty. One lookup serves one connection;
// a new connection gets a new lookup.
import type { Commit, LangSmithClient, PromptRepo, PromptTag } from '../client';
import { isNotFound } from '../client/errors';
import { promptKey, type PromptIdentifierParts } from './finder';

/** Runs one API call on the current connection (rejects when signed out or offline). */
export type RunCall = <T>(work: (client: LangSmithClient) => Promise<T>) => Promise<T>;

export type ReferenceProblem =
  | { kind: 'missingPrompt'; key: string }
  | { kind: 'missingTag'; key: string; tag: string; tags: string[] }
  | { kind: 'missingCommit'; key: string; commit: string }
  | { kind: 'noCommits'; key: string };

/** The version a reference pulls. */
export interface PromptVersion {
  key: string;
  commitHash: string;
  /** When the commit was made, when the server says. */
  createdAt?: string;
  /** The commit tags on this commit. */
  tags: string[];
  /** Whether it is the prompt's latest commit. */
  latest: boolean;
  manifest: unknown;
  description?: string;
}

export type VersionAnswer = { version: PromptVersion } | { problem: ReferenceProblem };

export interface LookupOptions {
  /** How long an answer is reused; default 60 s. */
  ttlMs?: number;
  /** Commits read at once per prompt (the latest first); default 50. */
  commitPage?: number;
  /** The most own prompts listed for the batch (more are looked up one by one); default 1,000. */
  listLimit?: number;
  now?: () => number;
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
}

/** The commit page of a prompt: its latest commits, and whether there are more. */
interface CommitPage {
  commits: Commit[];
  full: boolean;
}

export class PromptLookup {
  private readonly cache = new Map<string, Entry<unknown>>();
  private readonly ttl: number;
  private readonly pageSize: number;
  private readonly listLimit: number;
  private readonly now: () => number;

  constructor(
    private readonly run: RunCall,
    options: LookupOptions = {},
  ) {
    this.ttl = options.ttlMs ?? 60_000;
    this.pageSize = options.commitPage ?? 50;
    this.listLimit = options.listLimit ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /** Forgets what is known of one prompt (after a push or a tag change), or of everything. */
  invalidate(key?: string): void {
    if (key === undefined) {
      this.cache.clear();
      return;
    }
    const name = key.replace(/^-\//, '').split('/').pop()!;
    for (const k of [...this.cache.keys()]) {
      // Keys are `what|identifier` (`pull|identifier:ref`); the own listing holds every own prompt.
      const id = k.slice(k.indexOf('|') + 1).split(':')[0]!;
      if (k === 'own' || id === name || id.endsWith(`/${name}`)) this.cache.delete(k);
    }
  }

  /** A cached answer, or the work's (a failure is not kept: the next call tries again). */
  private cached<T>(key: string, work: () => Promise<T>): Promise<T> {
    const hit = this.cache.get(key) as Entry<T> | undefined;
    if (hit && this.now() - hit.at < this.ttl) return hit.value;
    const value = work();
    this.cache.set(key, { at: this.now(), value });
    value.catch(() => {
      if (this.cache.get(key)?.value === value) this.cache.delete(key);
    });
    return value;
  }

  /** The own prompts (names → repo), from one paged listing; `complete` is false when there were more than listed. */
  ownPrompts(): Promise<{ repos: Map<string, PromptRepo>; complete: boolean }> {
    return this.cached('own', () =>
      this.run(async (client) => {
        const repos = new Map<string, PromptRepo>();
        for await (const r of client.prompts.list({ limit: this.listLimit })) repos.set(r.repo_handle, r);
        return { repos, complete: repos.size < this.listLimit };
      }),
    );
  }

  /** The prompt's repository, or null when there is none (the own listing answers for own names when it can). */
  async repo(key: string): Promise<PromptRepo | null> {
    if (!key.includes('/')) {
      const own = await this.ownPrompts();
      const hit = own.repos.get(key);
      if (hit) return hit;
      // Not listed: archived, or beyond the listing, or absent; asked on its own.
    }
    return this.cached(`repo|${key}`, () => this.run((client) => client.prompts.get(key)));
  }

  /** The prompt's commit tags, or null when the prompt does not exist. */
  tags(key: string): Promise<PromptTag[] | null> {
    return this.cached(`tags|${key}`, () => this.run((client) => client.prompts.listTags(key)).catch(nullOnNotFound));
  }

  private commits(key: string): Promise<CommitPage | null> {
    return this.cached(`commits|${key}`, () =>
      this.run(async (client) => {
        const commits: Commit[] = [];
        for await (const c of client.prompts.listCommits(key, { limit: this.pageSize })) commits.push(c);
        return { commits, full: commits.length >= this.pageSize };
      }).catch(nullOnNotFound),
    );
  }

  /** A commit by its hash or a prefix of 8 or more characters, read on its own when not among the latest. */
  private async commit(key: string, ref: string, page: CommitPage): Promise<{ hash: string; commit?: Commit; manifest?: unknown } | null> {
    const lower = ref.toLowerCase();
    const hit = page.commits.find((c) => c.commit_hash.toLowerCase().startsWith(lower));
    if (hit) return { hash: hit.commit_hash, commit: hit };
    if (!page.full) return null;
    return this.cached(`pull|${key}:${lower}`, () =>
      this.run(async (client) => {
        const pulled = await client.prompts.pull(`${key}:${ref}`);
        return { hash: pulled.commit_hash, manifest: pulled.manifest };
      }).catch(nullOnNotFound),
    );
  }

  /**
   * What is wrong with each reference (null: nothing), in the order given. Own names are checked against one
   * listing; tags and commits need the prompt's tags or commits, read once per prompt.
   */
  async check(refs: readonly PromptIdentifierParts[]): Promise<(ReferenceProblem | null)[]> {
    return Promise.all(refs.map((p) => this.problemOf(p)));
  }

  private async problemOf(parts: PromptIdentifierParts): Promise<ReferenceProblem | null> {
    const key = promptKey(parts);
    if (!(await this.repo(key))) return { kind: 'missingPrompt', key };
    if (parts.kind === 'tag') {
      const tags = await this.tags(key);
      if (!tags) return { kind: 'missingPrompt', key };
      return tags.some((t) => t.tag_name === parts.ref) ? null : { kind: 'missingTag', key, tag: parts.ref!, tags: tags.map((t) => t.tag_name) };
    }
    if (parts.kind === 'commit') {
      const page = await this.commits(key);
      if (!page) return { kind: 'missingPrompt', key };
      return (await this.commit(key, parts.ref!, page)) ? null : { kind: 'missingCommit', key, commit: parts.ref! };
    }
    return null;
  }

  /** The version a reference pulls, or what is wrong with it. */
  async version(parts: PromptIdentifierParts): Promise<VersionAnswer> {
    const key = promptKey(parts);
    const [page, tags, repo] = await Promise.all([this.commits(key), this.tags(key), this.repo(key).catch(() => null)]);
    if (!page || !tags) return { problem: { kind: 'missingPrompt', key } };
    const latest = page.commits[0];
    if (!latest) return { problem: { kind: 'noCommits', key } };
    let hash: string;
    let commit: Commit | undefined;
    let manifest: unknown;
    if (parts.kind === 'latest') {
      hash = latest.commit_hash;
      commit = latest;
    } else if (parts.kind === 'tag') {
      const tag = tags.find((t) => t.tag_name === parts.ref);
      if (!tag?.commit_hash) return { problem: { kind: 'missingTag', key, tag: parts.ref!, tags: tags.map((t) => t.tag_name) } };
      hash = tag.commit_hash;
      commit = page.commits.find((c) => c.commit_hash === hash);
      if (!commit) {
        const found = await this.commit(key, hash, { commits: [], full: true });
        if (!found) return { problem: { kind: 'missingTag', key, tag: parts.ref!, tags: tags.map((t) => t.tag_name) } };
        manifest = found.manifest;
      }
    } else {
      const found = await this.commit(key, parts.ref!, page);
      if (!found) return { problem: { kind: 'missingCommit', key, commit: parts.ref! } };
      hash = found.hash;
      commit = found.commit;
      manifest = found.manifest;
    }
    return {
      version: {
        key,
        commitHash: hash,
        ...(commit?.created_at ? { createdAt: commit.created_at } : {}),
        tags: tags.filter((t) => t.commit_hash === hash).map((t) => t.tag_name),
        latest: hash === latest.commit_hash,
        manifest: commit ? commit.manifest : manifest,
        ...(repo?.description ? { description: repo.description } : {}),
      },
    };
  }
}

function nullOnNotFound(err: unknown): null {
  if (isNotFound(err)) return null;
  throw err;
}
