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

export class LangSmithView<R extends TreeNode> implements vscode.Disposable {
  readonly provider: NodeTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  readonly root: R;

  constructor(id: string, clients: ClientService, makeRoot: (ctx: ViewContext) => R, canSelectMany: boolean) {
    const ctx: ViewContext = { clients, redraw: (node) => this.provider.redraw(node) };
    this.root = makeRoot(ctx);
    this.provider = new NodeTreeProvider(this.root);
    this.treeView = vscode.window.createTreeView(id, { treeDataProvider: this.provider, showCollapseAll: true, canSelectMany });
  }

  refresh(node?: TreeNode): void {
    this.provider.refresh(node);
  }

  dispose(): void {
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

  /** Reloads one node in whichever view holds it. */
  /** Reloads a dataset's node (its examples, splits, versions) if the tree shows it: after an edit elsewhere. */
  refreshDataset(datasetId: string): void {
    const node = this.datasets.root.shownChild(`dataset/${datasetId}`);
    if (node) this.datasets.refresh(node);
  }

  /** Reloads a prompt of the own workspace (its commits and tags) after a push or a tag change; the whole view when it is new. */
  refreshPrompt(name: string, handle: string | null): void {
    const root = this.prompts.root;
    const node = root.shownChild(`prompt/${handle ?? '-'}/${name}`) ?? root.shownChild(`prompt/-/${name}`);
    this.prompts.refresh(node ?? root);
  }

  refreshNode(node: TreeNode): void {
    this.viewOf(node)?.refresh(node);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function topId(node: TreeNode): string {
  let n = node;
  while (n.parent) n = n.parent;
  return n.id;
}
