// The four LangSmith views: one provider, one hidden root and one TreeView each. Signing in or out, or
// changing the endpoint, reloads all of them.
import * as vscode from 'vscode';
import { ViewIds } from '../constants';
import type { ClientService } from '../auth/clientService';
import { DatasetsRoot } from './datasetsView';
import { ProjectsRoot } from './projectsView';
import { PromptsRoot } from './promptsView';
import { QueuesRoot } from './queuesView';
import { NodeTreeProvider, type TreeNode, type ViewContext } from './treeNode';

/** A view hidden at least this long reloads when it is shown again. */
export const STALE_AFTER_MS = 30_000;

export class LangSmithView<R extends TreeNode> implements vscode.Disposable {
  readonly provider: NodeTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  readonly root: R;

  constructor(id: string, clients: ClientService, makeRoot: (ctx: ViewContext) => R, canSelectMany: boolean) {
    const ctx: ViewContext = { clients, redraw: (node) => this.provider.redraw(node) };
    this.root = makeRoot(ctx);
    this.provider = new NodeTreeProvider(this.root);
    this.treeView = vscode.window.createTreeView(id, { treeDataProvider: this.provider, showCollapseAll: true, canSelectMany });
    this.visibility = this.treeView.onDidChangeVisibility((e) => this.visibilityChanged(e.visible));
  }

  private readonly visibility: vscode.Disposable;

  refresh(node?: TreeNode): void {
    this.provider.refresh(node);
  }

  /** Reloads a node's row too (its counts), after a change made through the extension; resolves when redrawn. */
  refreshWithRow(node: TreeNode): Promise<void> {
    return this.provider.refreshWithRow(node);
  }

  /** How long a view stays hidden before showing it again reloads it (what changed elsewhere then appears). */
  staleAfterMs = STALE_AFTER_MS;
  private hiddenSince: number | undefined;

  private visibilityChanged(visible: boolean): void {
    if (!visible) {
      this.hiddenSince = Date.now();
      return;
    }
    const since = this.hiddenSince;
    this.hiddenSince = undefined;
    if (since !== undefined && Date.now() - since >= this.staleAfterMs) this.refresh();
  }

  dispose(): void {
    this.visibility.dispose();
    this.treeView.dispose();
    this.provider.dispose();
  }
}

export class LangSmithViews implements vscode.Disposable {
  readonly projects: LangSmithView<ProjectsRoot>;
  readonly datasets: LangSmithView<DatasetsRoot>;
  readonly prompts: LangSmithView<PromptsRoot>;
  readonly queues: LangSmithView<QueuesRoot>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(readonly clients: ClientService) {
    this.projects = new LangSmithView(ViewIds.projects, clients, (ctx) => new ProjectsRoot(ctx), true);
    this.datasets = new LangSmithView(ViewIds.datasets, clients, (ctx) => new DatasetsRoot(ctx), true);
    this.prompts = new LangSmithView(ViewIds.prompts, clients, (ctx) => new PromptsRoot(ctx), false);
    this.queues = new LangSmithView(ViewIds.annotationQueues, clients, (ctx) => new QueuesRoot(ctx), true);
    this.disposables.push(this.projects, this.datasets, this.prompts, this.queues, clients.connection.onDidChange(() => this.refreshAll()));
  }

  get all(): LangSmithView<TreeNode>[] {
    return [this.projects, this.datasets, this.prompts, this.queues];
  }

  refreshAll(): void {
    for (const view of this.all) view.refresh();
  }

  /** The view a node belongs to (nodes know their root through their parents or their id prefix). */
  viewOf(node: TreeNode): LangSmithView<TreeNode> | undefined {
    const byRoot = this.all.find((view) => view.root === node);
    if (byRoot) return byRoot;
    const top = topId(node);
    if (top.startsWith('project/') || top.startsWith('run/')) return this.projects;
    if (top.startsWith('dataset/')) return this.datasets;
    if (top.startsWith('prompt')) return this.prompts;
    if (top.startsWith('queue/')) return this.queues;
    return undefined;
  }

  /** Reloads a dataset's node (its examples, splits, versions) if the tree shows it: after an edit elsewhere. */
  refreshDataset(datasetId: string): void {
    const node = this.datasets.root.shownChild(`dataset/${datasetId}`);
    if (node) this.rowReload = this.datasets.refreshWithRow(node);
  }

  /** Reloads a prompt of the own workspace (its commits and tags) after a push or a tag change; the whole view when it is new. */
  refreshPrompt(name: string, handle: string | null): void {
    const root = this.prompts.root;
    const node = root.shownChild(`prompt/${handle ?? '-'}/${name}`) ?? root.shownChild(`prompt/-/${name}`);
    if (node) this.rowReload = this.prompts.refreshWithRow(node);
    else this.prompts.refresh(root);
  }

  /**
   * Reloads the rows of queues whose items changed through the extension (runs added, items completed or removed):
   * their size and counts; the whole view when one is not shown (a queue made on the way).
   */
  refreshQueues(queueIds: Iterable<string>): void {
    const root = this.queues.root;
    const nodes = [...new Set(queueIds)].map((id) => root.shownChild(`queue/${id}`));
    if (nodes.some((n) => !n)) {
      this.queues.refresh();
      this.rowReload = Promise.resolve();
      return;
    }
    this.rowReload = Promise.all(nodes.map((n) => this.queues.refreshWithRow(n!))).then(() => undefined);
  }

  /** Reloads the view an agent's write changed (a tool answers in text, so the view is reloaded whole). */
  afterAgentWrite(tool: string): void {
    if (tool === 'add_runs_to_annotation_queue') this.queues.refresh();
    else if (tool === 'create_dataset' || tool === 'add_examples') this.datasets.refresh();
    else if (tool === 'tag_prompt_version' || tool === 'push_prompt') this.prompts.refresh();
  }

  /** Reloads a node, its row included (a prompt's commit count after a tag change), in whichever view holds it. */
  refreshNode(node: TreeNode): void {
    const view = this.viewOf(node);
    if (view) this.rowReload = view.refreshWithRow(node);
  }

  /** The latest reload of a row (settled once the row is redrawn): what a test waits for. */
  rowReload: Promise<void> = Promise.resolve();

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function topId(node: TreeNode): string {
  let n = node;
  while (n.parent) n = n.parent;
  return n.id;
}
