// Datasets → examples (paged), splits, versions (with tags).
import * as vscode from 'vscode';
import type { Dataset, DatasetVersion, Example } from '../client';
import { Commands } from '../commands/ids';
import { escapeMarkdown, formatWhen, markdownLines, summarize } from './format';
import { errorNode, MessageNode, PagedParentNode, TreeNode, type ViewContext } from './treeNode';

const PAGE = 50;

export class DatasetsRoot extends PagedParentNode<Dataset> {
  nameContains: string | undefined;

  constructor(view: ViewContext) {
    super('datasets', undefined, PAGE, view);
    this.hidden = true;
  }

  treeItem(): vscode.TreeItem {
    return new vscode.TreeItem('Datasets');
  }

  protected async openList(): Promise<AsyncIterator<Dataset>> {
    const client = await this.view.clients.client();
    return client.datasets.list({ nameContains: this.nameContains || undefined });
  }

  protected itemNode(dataset: Dataset): TreeNode {
    return new DatasetNode(dataset, this.childParent, this.view);
  }

  protected override emptyLabel(): string {
    return this.nameContains ? `No dataset name contains “${this.nameContains}”` : 'No datasets yet';
  }
}

export class DatasetNode extends PagedParentNode<Example> {
  private readonly splits: SplitsNode;
  private readonly versions: VersionsNode;

  constructor(
    readonly dataset: Dataset,
    parent: TreeNode | undefined,
    view: ViewContext,
  ) {
    super(`dataset/${dataset.id}`, parent, PAGE, view);
    this.splits = new SplitsNode(this, view);
    this.versions = new VersionsNode(this, view);
  }

  treeItem(): vscode.TreeItem {
    const d = this.dataset;
    const item = new vscode.TreeItem(d.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('database');
    const count = (d as { example_count?: unknown }).example_count;
    item.description = [typeof count === 'number' ? `${count} examples` : undefined, d.data_type && d.data_type !== 'kv' ? d.data_type : undefined].filter(Boolean).join(' · ') || undefined;
    item.tooltip = markdownLines([`**${escapeMarkdown(d.name)}**`, d.description ? escapeMarkdown(String(d.description)) : undefined, `id \`${d.id}\``]);
    item.contextValue = 'dataset';
    return item;
  }

  protected override fixedChildren(): TreeNode[] {
    return [this.splits, this.versions];
  }

  protected async openList(): Promise<AsyncIterator<Example>> {
    const client = await this.view.clients.client();
    return client.examples.list({ datasetId: this.dataset.id, pageSize: PAGE });
  }

  protected itemNode(example: Example): TreeNode {
    return new ExampleNode(example, this);
  }

  protected override emptyLabel(): string {
    return 'No examples yet';
  }

  override reset(): void {
    super.reset();
    this.splits.reset();
    this.versions.reset();
  }
}

export class ExampleNode extends TreeNode {
  constructor(
    readonly example: Example,
    readonly datasetNode: DatasetNode,
  ) {
    super(`example/${example.id}`, datasetNode);
  }

  treeItem(): vscode.TreeItem {
    const e = this.example;
    const item = new vscode.TreeItem(summarize(e.inputs) || e.id, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('symbol-field');
    const split = (e.metadata as { dataset_split?: unknown } | undefined)?.dataset_split;
    const splitText = Array.isArray(split) ? split.join(', ') : typeof split === 'string' ? split : undefined;
    item.description = [splitText, summarize(e.outputs, 40) ? `→ ${summarize(e.outputs, 40)}` : undefined].filter(Boolean).join(' · ');
    item.tooltip = markdownLines([`Inputs: ${escapeMarkdown(summarize(e.inputs, 300))}`, e.outputs ? `Outputs: ${escapeMarkdown(summarize(e.outputs, 300))}` : undefined, `id \`${e.id}\``]);
    item.contextValue = 'example';
    item.command = { command: Commands.editExample, title: 'Edit Example', arguments: [this] };
    return item;
  }
}

export class SplitsNode extends TreeNode {
  private names: string[] | undefined;
  private failure: unknown;

  constructor(
    readonly datasetNode: DatasetNode,
    private readonly view: ViewContext,
  ) {
    super(`${datasetNode.id}/splits`, datasetNode);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Splits', vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('split-horizontal');
    item.contextValue = 'splits';
    return item;
  }

  override async children(): Promise<TreeNode[]> {
    if (this.names === undefined && this.failure === undefined) {
      try {
        this.names = await this.view.clients.call((c) => c.datasets.listSplits({ datasetId: this.datasetNode.dataset.id }));
      } catch (err) {
        this.failure = err;
      }
    }
    if (this.failure !== undefined) return [errorNode(this, this.id, this.failure)];
    if (!this.names?.length) return [new MessageNode(`${this.id}/empty`, this, 'No splits', { icon: 'info' })];
    return this.names.map((name) => new MessageNode(`${this.id}/${name}`, this, name, { icon: 'tag', contextValue: 'split' }));
  }

  override reset(): void {
    this.names = undefined;
    this.failure = undefined;
  }
}

export class VersionsNode extends PagedParentNode<DatasetVersion> {
  constructor(
    readonly datasetNode: DatasetNode,
    view: ViewContext,
  ) {
    super(`${datasetNode.id}/versions`, datasetNode, PAGE, view);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Versions', vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('history');
    item.contextValue = 'versions';
    return item;
  }

  protected async openList(): Promise<AsyncIterator<DatasetVersion>> {
    const client = await this.view.clients.client();
    return client.datasets.listVersions({ datasetId: this.datasetNode.dataset.id });
  }

  protected itemNode(version: DatasetVersion): TreeNode {
    return new VersionNode(version, this);
  }

  protected override emptyLabel(): string {
    return 'No versions yet';
  }
}

export class VersionNode extends TreeNode {
  constructor(
    readonly version: DatasetVersion,
    readonly versionsNode: VersionsNode,
  ) {
    super(`${versionsNode.id}/${version.as_of}`, versionsNode);
  }

  treeItem(): vscode.TreeItem {
    const v = this.version;
    const item = new vscode.TreeItem(new Date(v.as_of).toLocaleString(), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(v.tags?.length ? 'tag' : 'git-commit');
    item.description = [v.tags?.length ? v.tags.join(', ') : undefined, formatWhen(v.as_of)].filter(Boolean).join(' · ');
    item.tooltip = markdownLines([`Version as of \`${v.as_of}\``, v.tags?.length ? `Tags: ${v.tags.map(escapeMarkdown).join(', ')}` : 'No tags']);
    item.contextValue = 'datasetVersion';
    return item;
  }
}
