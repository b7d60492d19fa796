// Projects → root runs (newest first, paged) → child runs.
import * as vscode from 'vscode';
import type { Project, Run } from '../client';
import { Commands } from '../constants';
import { escapeMarkdown, formatCount, formatLatency, formatWhen, markdownLines, summarize } from './format';
import { PagedParentNode, type TreeNode, type ViewContext } from './treeNode';

const PAGE = 50;
/** Run types whose runs are usually leaves; others may have child runs. */
const LEAF_TYPES = new Set(['llm', 'embedding', 'retriever', 'prompt', 'parser']);
const RUN_ICONS: Record<string, string> = {
  llm: 'sparkle',
  chain: 'link',
  tool: 'tools',
  retriever: 'search',
  prompt: 'note',
  parser: 'symbol-structure',
  embedding: 'symbol-array',
};

export interface ProjectFilters {
  nameContains?: string;
  errorsOnly: boolean;
}

export class ProjectsRoot extends PagedParentNode<Project> {
  readonly filters: ProjectFilters = { errorsOnly: false };

  constructor(view: ViewContext) {
    super('projects', undefined, PAGE, view);
    this.hidden = true;
  }

  treeItem(): vscode.TreeItem {
    return new vscode.TreeItem('Projects');
  }

  protected async openList(): Promise<AsyncIterator<Project>> {
    const client = await this.view.clients.client();
    return client.projects.list({ nameContains: this.filters.nameContains || undefined, pageSize: PAGE });
  }

  protected itemNode(project: Project): TreeNode {
    return new ProjectNode(project, this.childParent, this.view, this.filters);
  }

  protected override emptyLabel(): string {
    return this.filters.nameContains ? `No project name contains “${this.filters.nameContains}”` : 'No projects yet';
  }
}

export class ProjectNode extends PagedParentNode<Run> {
  constructor(
    readonly project: Project,
    parent: TreeNode | undefined,
    view: ViewContext,
    private readonly filters: ProjectFilters,
  ) {
    super(`project/${project.id}`, parent, PAGE, view);
  }

  treeItem(): vscode.TreeItem {
    const p = this.project;
    const item = new vscode.TreeItem(p.name ?? p.id, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const experiment = !!p.reference_dataset_id;
    item.iconPath = new vscode.ThemeIcon(experiment ? 'beaker' : 'project');
    item.description = [experiment ? 'experiment' : undefined, typeof p.run_count === 'number' ? `${p.run_count} runs` : undefined].filter(Boolean).join(' · ') || undefined;
    item.tooltip = markdownLines([`**${escapeMarkdown(p.name ?? '')}**`, p.description ? escapeMarkdown(String(p.description)) : undefined, `id \`${p.id}\``]);
    item.contextValue = experiment ? 'project.experiment' : 'project';
    return item;
  }

  protected async openList(): Promise<AsyncIterator<Run>> {
    const client = await this.view.clients.client();
    return client.runs.query({ projectId: this.project.id, isRoot: true, error: this.filters.errorsOnly ? true : undefined, order: 'desc', pageSize: PAGE });
  }

  protected itemNode(run: Run): TreeNode {
    return new RunNode(run, this, this.view);
  }

  protected override emptyLabel(): string {
    return this.filters.errorsOnly ? 'No failed runs' : 'No runs yet';
  }
}

export class RunNode extends PagedParentNode<Run> {
  constructor(
    readonly run: Run,
    parent: TreeNode | undefined,
    view: ViewContext,
  ) {
    super(`run/${run.id}`, parent, PAGE, view);
  }

  get projectId(): string | undefined {
    return this.run.session_id ?? undefined;
  }

  /** The run's public share token, or null: kept up to date by Share Run / Stop Sharing Run. */
  get shareToken(): string | null {
    const t = (this.run as { share_token?: unknown }).share_token;
    return typeof t === 'string' && t ? t : null;
  }

  set shareToken(token: string | null) {
    (this.run as { share_token?: unknown }).share_token = token;
  }

  treeItem(): vscode.TreeItem {
    const r = this.run;
    const type = r.run_type ?? 'chain';
    const failed = !!r.error || r.status === 'error';
    const running = !failed && r.end_time == null;
    const item = new vscode.TreeItem(r.name ?? r.id, LEAF_TYPES.has(type) ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    // Status first, by colour: failed, running, or done (the run type's own icon).
    item.iconPath = failed
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
      : running
        ? new vscode.ThemeIcon('loading~spin')
        : new vscode.ThemeIcon(RUN_ICONS[type] ?? 'pass', new vscode.ThemeColor('testing.iconPassed'));
    const latency = formatLatency(r.start_time, r.end_time);
    const tokens = typeof r.total_tokens === 'number' && r.total_tokens > 0 ? `${formatCount(r.total_tokens)} tok` : undefined;
    // What tells runs of one chain apart comes first: when they ran; then how long and how many tokens.
    item.description = [formatWhen(r.start_time), failed ? 'error' : running ? 'running' : latency, tokens].filter(Boolean).join(' · ');
    item.tooltip = markdownLines([
      `**${escapeMarkdown(r.name ?? '')}** · ${escapeMarkdown(type)} · ${failed ? 'failed' : running ? 'running' : 'done'}`,
      failed && r.error ? `Error: ${escapeMarkdown(String(r.error).slice(0, 300))}` : undefined,
      r.start_time != null ? `Started ${escapeMarkdown(new Date(r.start_time).toLocaleString())}${latency ? ` · took ${escapeMarkdown(latency)}` : ''}` : undefined,
      tokens ? `Tokens: ${formatCount(r.total_tokens as number)} (prompt ${formatCount(Number(r.prompt_tokens ?? 0))}, completion ${formatCount(Number(r.completion_tokens ?? 0))})` : undefined,
      r.inputs ? `Inputs: ${escapeMarkdown(summarize(r.inputs, 200))}` : undefined,
      this.shareToken ? 'Shared publicly' : undefined,
      `id \`${r.id}\``,
    ]);
    item.contextValue = `run.${this.shareToken ? 'shared' : 'unshared'}`;
    item.command = { command: Commands.openRun, title: 'Open Run', arguments: [this] };
    return item;
  }

  protected async openList(): Promise<AsyncIterator<Run>> {
    const client = await this.view.clients.client();
    return client.runs.query({ projectId: this.projectId, parentRunId: this.run.id, order: 'asc', pageSize: PAGE });
  }

  protected itemNode(run: Run): TreeNode {
    return new RunNode(run, this, this.view);
  }

  protected override emptyLabel(): string {
    return 'No child runs';
  }
}
