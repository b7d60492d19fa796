// Projects → root runs (newest first, paged) → child runs.
import * as vscode from 'vscode';
import type { Project, Run } from '../client';
import { Commands } from '../commands/ids';
import { escapeMarkdown, formatLatency, formatWhen, markdownLines } from './format';
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

  treeItem(): vscode.TreeItem {
    const r = this.run;
    const type = r.run_type ?? 'chain';
    const failed = !!r.error || r.status === 'error';
    const item = new vscode.TreeItem(r.name ?? r.id, LEAF_TYPES.has(type) ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = failed
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
      : r.end_time == null
        ? new vscode.ThemeIcon('loading~spin')
        : new vscode.ThemeIcon(RUN_ICONS[type] ?? 'circle-outline');
    const latency = formatLatency(r.start_time, r.end_time);
    item.description = [type, failed ? 'error' : r.end_time == null ? 'running' : undefined, latency, formatWhen(r.start_time)].filter(Boolean).join(' · ');
    item.tooltip = markdownLines([
      `**${escapeMarkdown(r.name ?? '')}** (${escapeMarkdown(type)})`,
      failed && r.error ? `Error: ${escapeMarkdown(String(r.error).slice(0, 300))}` : undefined,
      latency ? `Latency: ${latency}` : undefined,
      r.start_time != null ? `Started: ${new Date(r.start_time).toLocaleString()}` : undefined,
      `id \`${r.id}\``,
    ]);
    item.contextValue = 'run';
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
