// The four LangSmith views: one provider, one hidden root and one TreeView each. Signing in or out, or
// changing the endpoint, reloads all of them.
import * as vscode from 'vscode';
import { ViewIds } from '../constants';
import type { ClientService } from '../auth/clientService';
import { DatasetsRoot } from './datasetsView';
import { ProjectsRoot } from './projectsView';
import { PromptsRoot } from './promptsView';
import { QueuesRoot } from './queuesView';
import type { Change } from '../protocol/changes';
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
  refreshWithRow(node: TreeNode, known?: Change): Promise<void> {
    return this.provider.refreshWithRow(node, known);
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

  /**
   * Shows a change told on the change bus: reloads only the node it names if the tree shows it (taking the numbers
   * the publisher gave instead of reading them), the list it belongs to when it names none or the tree does not
   * show it (an entity made on the way).
   */
  apply(change: Change): void {
    switch (change.kind) {
      case 'dataset': {
        const node = change.datasetId ? this.datasets.root.shownChild(`dataset/${change.datasetId}`) : undefined;
        // An edited dataset that is not shown has nothing on screen to update; a new or deleted one changes the list.
        if (node) this.track(this.datasets.refreshWithRow(node, change));
        else if (!change.datasetId) this.datasets.refresh();
        return;
      }
      case 'prompt': {
        const root = this.prompts.root;
        const node = change.name ? (root.shownChild(`prompt/${change.handle ?? '-'}/${change.name}`) ?? root.shownChild(`prompt/-/${change.name}`)) : undefined;
        if (node) this.track(this.prompts.refreshWithRow(node, change));
        else this.prompts.refresh(root);
        return;
      }
      case 'queue': {
        const node = change.queueId ? this.queues.root.shownChild(`queue/${change.queueId}`) : undefined;
        if (node) this.track(this.queues.refreshWithRow(node, change));
        else this.queues.refresh();
        return;
      }
      case 'project':
        this.projects.refresh();
        return;
      case 'feedbackConfigs':
        this.queues.refresh(this.queues.root.feedbackConfigs);
        return;
      case 'feedback':
        // No tree row shows a run's feedback.
        return;
    }
  }

  /** Adds a row's reload to what `rowReload` waits for (several changes may be told at once). */
  private track(reload: Promise<void>): void {
    const before = this.rowReload;
    this.rowReload = Promise.all([before, reload]).then(() => undefined);
  }

  /** Reloads a node, its row included (a prompt's commit count after a tag change), in whichever view holds it. */
  refreshNode(node: TreeNode): void {
    const view = this.viewOf(node);
    if (view) this.track(view.refreshWithRow(node));
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
