// Datasets → examples (paged), splits, versions (with tags).
import * as vscode from 'vscode';
import type { Dataset, DatasetVersion, Example, Project } from '../client';
import { figureParts, ProjectNode, projectStats } from './projectsView';
import { exampleSplits } from '../client/exampleSplits';
import { lastHumanMessage, lastMessage } from '../text/chatText';
import { Commands } from '../constants';
import { escapeMarkdown, formatWhen, summarize, fitDescription, rowChars } from '../text/format';
import { markdownLines } from './markdown';
import { errorNode, MessageNode, PagedParentNode, TreeNode, withSideLoad, type ViewContext } from './treeNode';
import type { Change } from '../protocol/changes';

const PAGE = 50;

export class DatasetsRoot extends PagedParentNode<Dataset> {
  nameContains: string | undefined;

  constructor(view: ViewContext) {
    super('datasets', undefined, PAGE, view);
    this.hidden = true;
  }

  treeItem(): vscode.TreeItem {
    return new vscode.TreeItem(vscode.l10n.t('Datasets'));
  }

  /** Ids of the workspace's shared datasets, read with the first page (menus offer Share or Stop Sharing). */
  private shared = new Set<string>();

  protected async openList(): Promise<AsyncIterator<Dataset>> {
    const client = await this.view.clients.client();
    // One listing of what the workspace shares, in flight alongside the first page (not a share read per
    // dataset, and not one request after the other).
    const shared = client.datasets.sharedIds().catch(() => new Set<string>());
    const list = client.datasets.list({ nameContains: this.nameContains || undefined });
    return withSideLoad(list, shared, (ids) => (this.shared = ids));
  }

  protected itemNode(dataset: Dataset): TreeNode {
    const node = new DatasetNode(dataset, this.childParent, this.view);
    node.shared = this.shared.has(dataset.id);
    return node;
  }

  protected override emptyLabel(): string {
    return this.nameContains ? vscode.l10n.t('No dataset name contains “{0}”', this.nameContains) : vscode.l10n.t('No datasets yet');
  }
}

export class DatasetNode extends PagedParentNode<Example> {
  /** Whether the dataset has a public link: kept up to date by Share Dataset / Stop Sharing Dataset. */
  shared = false;
  private readonly splits: SplitsNode;
  private readonly versions: VersionsNode;
  private readonly experiments: ExperimentsNode;

  constructor(
    public dataset: Dataset,
    parent: TreeNode | undefined,
    view: ViewContext,
  ) {
    super(`dataset/${dataset.id}`, parent, PAGE, view);
    this.splits = new SplitsNode(this, view);
    this.versions = new VersionsNode(this, view);
    this.experiments = new ExperimentsNode(this, view);
  }

  /** Reads the dataset again so its row's example count matches the examples listed under it. */
  override async reloadRow(): Promise<void> {
    this.dataset = await this.view.clients.call((c) => c.datasets.read({ datasetId: this.dataset.id }));
  }

  override takeKnown(change: Change): boolean {
    if (change.kind !== 'dataset' || typeof change.examples !== 'number') return false;
    this.dataset = { ...this.dataset, example_count: change.examples };
    return true;
  }

  treeItem(): vscode.TreeItem {
    const d = this.dataset;
    const item = new vscode.TreeItem(d.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('database');
    const count = d.example_count;
    const examples = typeof count === 'number' ? vscode.l10n.t('{0} examples', count) : undefined;
    const type = d.data_type && d.data_type !== 'kv' ? d.data_type : undefined;
    // The count first, shortened when the name leaves no room for the word; the type if it still fits.
    const countText = examples && d.name.length + 1 + examples.length > rowChars(1) ? vscode.l10n.t('{0} ex.', count as number) : examples;
    item.description = fitDescription(d.name, [countText, type], 1);
    item.tooltip = markdownLines([
      `**${escapeMarkdown(d.name)}**`,
      [examples, type ? vscode.l10n.t('type {0}', escapeMarkdown(type)) : undefined].filter(Boolean).join(' · ') || undefined,
      d.description ? escapeMarkdown(String(d.description)) : undefined,
      this.shared ? vscode.l10n.t('Shared publicly') : undefined,
      vscode.l10n.t('id {0}', `\`${d.id}\``),
    ]);
    item.contextValue = `dataset.${this.shared ? 'shared' : 'unshared'}`;
    return item;
  }

  protected override fixedChildren(): TreeNode[] {
    return [this.splits, this.versions, this.experiments];
  }

  protected async openList(): Promise<AsyncIterator<Example>> {
    const client = await this.view.clients.client();
    return client.examples.list({ datasetId: this.dataset.id, pageSize: PAGE });
  }

  protected itemNode(example: Example): TreeNode {
    return new ExampleNode(example, this);
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('No examples yet');
  }

  override reset(): void {
    super.reset();
    this.splits.reset();
    this.versions.reset();
    this.experiments.reset();
  }
}

/** A dataset's experiments, newest first, each with its scores per feedback key, error rate and latency. */
export class ExperimentsNode extends PagedParentNode<Project> {
  constructor(
    readonly datasetNode: DatasetNode,
    view: ViewContext,
  ) {
    super(`${datasetNode.id}/experiments`, datasetNode, PAGE, view);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Experiments'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('beaker');
    item.contextValue = 'experiments';
    item.tooltip = vscode.l10n.t('Experiments run on {0}, newest first. Select two or more to compare them.', this.datasetNode.dataset.name);
    return item;
  }

  protected async openList(): Promise<AsyncIterator<Project>> {
    const client = await this.view.clients.client();
    return client.projects.list({ referenceDatasetId: this.datasetNode.dataset.id, includeStats: true, pageSize: PAGE });
  }

  protected itemNode(project: Project): TreeNode {
    return new ExperimentNode(project, this, this.view);
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('No experiments yet: run a prompt over this dataset');
  }
}

/** One experiment under its dataset: the row says its scores; its menu is an experiment project's. */
export class ExperimentNode extends ProjectNode {
  constructor(project: Project, parent: TreeNode, view: ViewContext) {
    super(project, parent, view, { errorsOnly: false });
  }

  override treeItem(): vscode.TreeItem {
    const item = super.treeItem();
    item.id = `${this.parent?.id}/${this.project.id}`;
    return item;
  }

  /** Its average score per feedback key (the first three), then its error rate, p50 latency and when it ran. */
  protected override descriptionParts(): (string | undefined)[] {
    const feedback = (this.project as Record<string, unknown>)['feedback_stats'];
    const scores =
      feedback && typeof feedback === 'object'
        ? Object.entries(feedback as Record<string, { avg?: unknown }>)
            .filter(([, s]) => typeof s?.avg === 'number')
            .slice(0, 3)
            .map(([k, s]) => `${k} ${(s.avg as number).toFixed(2)}`)
        : [];
    return [...scores, ...figureParts(projectStats(this.project))];
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
    // A chat reads as its last human message, and its reference answer as that message's text.
    const asked = lastHumanMessage(e.inputs);
    const answer = lastMessage(e.outputs);
    const item = new vscode.TreeItem(summarize(asked ?? e.inputs) || e.id, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(asked === undefined ? 'symbol-field' : 'comment-discussion');
    const splitText = exampleSplits(e).join(', ') || undefined;
    const outputText = summarize(answer ?? e.outputs, 40);
    item.description = [splitText, outputText ? `→ ${outputText}` : undefined].filter(Boolean).join(' · ');
    item.tooltip = markdownLines([
      asked !== undefined ? vscode.l10n.t('Last human message: {0}', escapeMarkdown(summarize(asked, 300))) : undefined,
      vscode.l10n.t('Inputs: {0}', escapeMarkdown(summarize(e.inputs, 300))),
      e.outputs ? vscode.l10n.t('Outputs: {0}', escapeMarkdown(summarize(e.outputs, 300))) : undefined,
      vscode.l10n.t('id {0}', `\`${e.id}\``),
    ]);
    item.contextValue = 'example';
    item.command = { command: Commands.editExample, title: vscode.l10n.t('Edit Example'), arguments: [this] };
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
    const item = new vscode.TreeItem(vscode.l10n.t('Splits'), vscode.TreeItemCollapsibleState.Collapsed);
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
    if (this.failure !== undefined) return [errorNode(this, this.id, this.failure, this)];
    if (!this.names?.length) return [new MessageNode(`${this.id}/empty`, this, vscode.l10n.t('No splits'), { icon: 'info' })];
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
    const item = new vscode.TreeItem(vscode.l10n.t('Versions'), vscode.TreeItemCollapsibleState.Collapsed);
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

  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /** Runs the versions' change reads at most CHANGE_READS at a time. */
  async limit<T>(work: () => Promise<T>): Promise<T> {
    while (this.running >= CHANGE_READS) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('No versions yet');
  }
}

/** The change counts of a version, read a few at a time after the rows show. */
const CHANGE_READS = 4;

export class VersionNode extends TreeNode {
  /** What this version changed (added, modified, removed), once read; the row shows it first. */
  private changes: { added: number; modified: number; removed: number } | undefined;
  private asked = false;

  constructor(
    readonly version: DatasetVersion,
    readonly versionsNode: VersionsNode,
  ) {
    super(`${versionsNode.id}/${version.as_of}`, versionsNode);
  }

  /**
   * The examples this version changed: the diff from the moment before it to it (one request per version, at
   * most CHANGE_READS at once per list). The counts are extra: a failed read leaves the row as it was.
   */
  private async readChanges(): Promise<void> {
    const before = new Date(new Date(this.version.as_of).getTime() - 1);
    if (!Number.isFinite(before.getTime())) return;
    try {
      const d = await this.versionsNode.limit(async () =>
        (await this.versionsNode.view.clients.client()).datasets.diff({ datasetId: this.versionsNode.datasetNode.dataset.id, fromVersion: before, toVersion: this.version.as_of }),
      );
      this.changes = { added: d.examples_added.length, modified: d.examples_modified.length, removed: d.examples_removed.length };
      this.versionsNode.view.redraw(this);
    } catch {
      /* shown without counts */
    }
  }

  treeItem(): vscode.TreeItem {
    const v = this.version;
    // Tags first (they are how versions are named), then when; the exact time tells untagged ones apart.
    const tagged = !!v.tags?.length;
    const when = formatWhen(v.as_of) ?? v.as_of;
    // An untagged version is named by its time to the second (short: the date only when not today).
    const label = tagged ? v.tags!.join(', ') : shortTime(v.as_of);
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(tagged ? 'tag' : 'git-commit');
    if (!this.asked) {
      this.asked = true;
      void this.readChanges();
    }
    const c = this.changes;
    // +3 ~1 −2: added, modified, removed examples (the tooltip says it in words).
    const counts = c && ([c.added && `+${c.added}`, c.modified && `~${c.modified}`, c.removed && `−${c.removed}`].filter(Boolean).join(' ') || vscode.l10n.t('no change'));
    item.description = fitDescription(label, [counts, when, tagged ? shortTime(v.as_of) : undefined], 3);
    item.tooltip = markdownLines([
      vscode.l10n.t('Version as of {0}', escapeMarkdown(new Date(v.as_of).toLocaleString())),
      c ? vscode.l10n.t('{0} added, {1} modified, {2} removed', c.added, c.modified, c.removed) : undefined,
      `\`${v.as_of}\``,
      v.tags?.length ? vscode.l10n.t('Tags: {0}', v.tags.map(escapeMarkdown).join(', ')) : vscode.l10n.t('No tags'),
    ]);
    item.contextValue = 'datasetVersion';
    return item;
  }
}

/** A version's time as its row shows it: 12:12:14 today, else 11/26 12:12:14 (the full date is in the tooltip). */
export function shortTime(value: string, now = new Date()): string {
  const t = new Date(value);
  if (!Number.isFinite(t.getTime())) return value;
  const time = t.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  if (t.toDateString() === now.toDateString()) return time;
  const date = t.getFullYear() === now.getFullYear() ? t.toLocaleDateString(undefined, { month: 'numeric', day: 'numeric' }) : t.toLocaleDateString();
  return `${date} ${time}`;
}
