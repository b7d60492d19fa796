// Prompts: the workspace's own prompt repos → commits (hash, time, tags); a second node searches public
// prompts of other workspaces.
import * as vscode from 'vscode';
import type { Commit, LangSmithClient, PromptRepo, PromptTag } from '../client';
import type { PromptListOptions } from '../client/resources/prompts';
import { Commands } from '../constants';
import { escapeMarkdown, fitDescription, formatWhen } from '../text/format';
import { markdownLines } from './markdown';
import { groupItem, PagedParentNode, TreeNode, withSideLoad, type ViewContext } from './treeNode';
import type { Change } from '../protocol/changes';

const PAGE = 50;

/** /repos lists every prompt the caller can see; these are the ones of the caller's own workspace. */
async function ownPrompts(client: LangSmithClient, options: PromptListOptions): Promise<AsyncIterator<PromptRepo>> {
  const own = (await client.settings()).tenant_handle;
  const all = client.prompts.list(options);
  return (async function* () {
    for await (const repo of all) if (!repo.owner || repo.owner === own || repo.owner === '-') yield repo;
  })();
}

export class PromptsRoot extends PagedParentNode<PromptRepo> {
  nameQuery: string | undefined;
  readonly publicPrompts: PublicPromptsNode;
  readonly archivedPrompts: ArchivedPromptsNode;

  constructor(view: ViewContext) {
    super('prompts', undefined, PAGE, view);
    this.hidden = true;
    this.publicPrompts = new PublicPromptsNode(view);
    this.archivedPrompts = new ArchivedPromptsNode(view);
  }

  treeItem(): vscode.TreeItem {
    return new vscode.TreeItem(vscode.l10n.t('Prompts'));
  }

  protected override fixedChildren(): TreeNode[] {
    return [this.publicPrompts, this.archivedPrompts];
  }

  protected async openList(): Promise<AsyncIterator<PromptRepo>> {
    return ownPrompts(await this.view.clients.client(), { query: this.nameQuery || undefined });
  }

  protected itemNode(repo: PromptRepo): TreeNode {
    return new PromptNode(repo, this.childParent, this.view, true);
  }

  protected override emptyLabel(): string {
    return this.nameQuery ? vscode.l10n.t('No prompt matches “{0}”', this.nameQuery) : vscode.l10n.t('No prompts yet');
  }

  override reset(): void {
    super.reset();
    this.publicPrompts.reset();
    this.archivedPrompts.reset();
  }
}

/** The workspace's archived prompts, kept apart from the active ones so they can be brought back. */
export class ArchivedPromptsNode extends PagedParentNode<PromptRepo> {
  constructor(view: ViewContext) {
    super('prompts/archived', undefined, PAGE, view);
  }

  treeItem(): vscode.TreeItem {
    return groupItem(this.id, vscode.l10n.t('Archived prompts'), 'archive', 'archivedPrompts');
  }

  protected async openList(): Promise<AsyncIterator<PromptRepo>> {
    return ownPrompts(await this.view.clients.client(), { isArchived: true });
  }

  protected itemNode(repo: PromptRepo): TreeNode {
    return new PromptNode(repo, this, this.view, true);
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('No archived prompts');
  }
}

export class PublicPromptsNode extends PagedParentNode<PromptRepo> {
  query: string | undefined;

  constructor(view: ViewContext) {
    super('prompts/public', undefined, PAGE, view);
  }

  treeItem(): vscode.TreeItem {
    const label = vscode.l10n.t('Public prompts');
    const item = groupItem(this.id, label, 'globe', 'publicPrompts', this.query ? fitDescription(label, [`“${this.query}”`], 1) : undefined);
    item.tooltip = this.query
      ? vscode.l10n.t('Public prompts of other workspaces matching “{0}”; search again with the view’s search button.', this.query)
      : vscode.l10n.t('Public prompts of other workspaces: search them with the view’s search button.');
    return item;
  }

  protected async openList(): Promise<AsyncIterator<PromptRepo>> {
    const client = await this.view.clients.client();
    const own = (await client.settings()).tenant_handle;
    const all = client.prompts.list({ isPublic: true, query: this.query || undefined });
    return (async function* () {
      for await (const repo of all) if (repo.owner && repo.owner !== own) yield repo;
    })();
  }

  protected itemNode(repo: PromptRepo): TreeNode {
    return new PromptNode(repo, this, this.view, false);
  }

  protected override emptyLabel(): string {
    return this.query ? vscode.l10n.t('No public prompt matches “{0}”', this.query) : vscode.l10n.t('No public prompts from other workspaces');
  }
}

export class PromptNode extends PagedParentNode<Commit> {
  private tags: PromptTag[] = [];

  constructor(
    public repo: PromptRepo,
    parent: TreeNode | undefined,
    view: ViewContext,
    readonly own: boolean,
  ) {
    super(`prompt/${repo.owner ?? '-'}/${repo.repo_handle}`, parent, PAGE, view);
  }

  /** Reads the prompt again so its row (commit count, last update, likes) matches the commits listed under it. */
  override async reloadRow(): Promise<void> {
    const fresh = await this.view.clients.call((c) => c.prompts.get(this.identifier));
    if (fresh) this.repo = fresh;
  }

  override takeKnown(change: Change): boolean {
    if (change.kind !== 'prompt' || typeof change.commits !== 'number') return false;
    this.repo = { ...this.repo, num_commits: change.commits };
    return true;
  }

  /** `owner/name` as the API and the links want it. */
  get identifier(): string {
    return `${this.own ? '-' : this.repo.owner}/${this.repo.repo_handle}`;
  }

  treeItem(): vscode.TreeItem {
    const r = this.repo;
    const item = new vscode.TreeItem(this.own ? r.repo_handle : `${r.owner}/${r.repo_handle}`, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(r.is_archived ? 'archive' : 'comment-discussion');
    const commits = typeof r.num_commits === 'number' ? (r.num_commits === 1 ? vscode.l10n.t('1 commit') : vscode.l10n.t('{0} commits', r.num_commits)) : undefined;
    const likes = typeof r.num_likes === 'number' && r.num_likes > 0 ? `♥ ${r.num_likes}` : undefined;
    const updated = formatWhen(r.updated_at);
    // How many commits and how recent first, as far as the default width allows; visibility and the rest in the tooltip.
    item.description = fitDescription(String(item.label), [commits, updated, likes], this.parent ? 2 : 1);
    item.tooltip = markdownLines([
      `**${escapeMarkdown(r.full_name ?? r.repo_handle)}**`,
      [r.is_public ? vscode.l10n.t('public') : vscode.l10n.t('private'), r.is_archived ? vscode.l10n.t('archived') : undefined, commits, likes].filter(Boolean).join(' · '),
      updated ? vscode.l10n.t('Updated {0}', escapeMarkdown(new Date(r.updated_at!).toLocaleString())) : undefined,
      r.description ? escapeMarkdown(String(r.description)) : undefined,
      r.tags?.length ? vscode.l10n.t('Tags: {0}', r.tags.map(escapeMarkdown).join(', ')) : undefined,
    ]);
    const liked = !!r.liked_by_auth_user;
    const flags = [this.own ? 'own' : 'other', r.is_public ? 'public' : 'private', r.is_archived ? 'archived' : 'active', liked ? 'liked' : 'unliked'];
    item.contextValue = `prompt.${flags.join('.')}`;
    return item;
  }

  protected async openList(): Promise<AsyncIterator<Commit>> {
    const client = await this.view.clients.client();
    // The tags and the first page of commits at once.
    const tags = this.own ? client.prompts.listTags(this.identifier).catch((): PromptTag[] => []) : Promise.resolve([]);
    const commits = client.prompts.listCommits(this.identifier);
    return withSideLoad(commits, tags, (loaded) => (this.tags = loaded));
  }

  protected itemNode(commit: Commit): TreeNode {
    const tags = this.tags.filter((t) => t.commit_hash === commit.commit_hash || t.commit_id === commit.id).map((t) => t.tag_name);
    return new CommitNode(commit, this, tags);
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('No commits yet');
  }
}

export class CommitNode extends TreeNode {
  constructor(
    readonly commit: Commit,
    readonly promptNode: PromptNode,
    readonly tags: string[],
  ) {
    super(`${promptNode.id}/commit/${commit.commit_hash}`, promptNode);
  }

  treeItem(): vscode.TreeItem {
    const c = this.commit;
    const item = new vscode.TreeItem(c.commit_hash.slice(0, 8), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.tags.length ? 'tag' : 'git-commit');
    item.description = [this.tags.join(', ') || undefined, formatWhen(c.created_at)].filter(Boolean).join(' · ');
    item.tooltip = markdownLines([
      vscode.l10n.t('Commit {0}', `\`${c.commit_hash}\``),
      c.created_at ? vscode.l10n.t('Created {0}', new Date(c.created_at).toLocaleString()) : undefined,
      this.tags.length ? vscode.l10n.t('Tags: {0}', this.tags.map(escapeMarkdown).join(', ')) : undefined,
    ]);
    item.contextValue = `commit.${this.promptNode.own ? 'own' : 'other'}.${this.tags.length ? 'tagged' : 'untagged'}`;
    item.command = { command: Commands.openCommit, title: vscode.l10n.t('Open Commit'), arguments: [this] };
    return item;
  }
}
