// The building blocks every LangSmith tree shares: nodes with stable ids, children loaded lazily and in pages
// ("Load more"), and errors shown as nodes in the tree instead of toasts.
import * as vscode from 'vscode';
import { LangSmithAuthError, LangSmithNotFoundError } from '../client/errors';
import { NotSignedInError } from '../auth/clientService';
import { Commands } from '../constants';
import type { ClientService } from '../auth/clientService';
import type { Change } from '../protocol/changes';

/** What nodes of one view share: the API and a way to redraw themselves. */
export interface ViewContext {
  readonly clients: ClientService;
  redraw(node: TreeNode): void;
}

/**
 * A listing whose rows need something loaded beside it (tags, share state): both requests go out at once, and
 * `use` gets the side load before the first row is handed on.
 */
export function withSideLoad<T, S>(list: AsyncIterable<T>, side: Promise<S>, use: (loaded: S) => void): AsyncIterator<T> {
  return (async function* () {
    let first = true;
    for await (const item of list) {
      if (first) use(await side);
      first = false;
      yield item;
    }
  })();
}

export abstract class TreeNode {
  constructor(
    readonly id: string,
    readonly parent: TreeNode | undefined,
  ) {}

  abstract treeItem(): vscode.TreeItem;

  /** Children of an expandable node; leaves keep the default. */
  async children(): Promise<TreeNode[]> {
    return [];
  }

  /** Forgets loaded children so the next expansion loads them again. */
  reset(): void {}

  /** Reads what the node's own row shows again (after a change made through the extension); most rows keep theirs. */
  async reloadRow(): Promise<void> {}

  /**
   * Takes what a change's publisher already knows of this row (a prompt's commit count after a push) instead of
   * reading it again; true when the row is then up to date.
   */
  takeKnown(_change: Change): boolean {
    return false;
  }
}

export class MessageNode extends TreeNode {
  constructor(
    id: string,
    parent: TreeNode | undefined,
    readonly label: string,
    private readonly options: { icon?: string; tooltip?: string | vscode.MarkdownString; command?: vscode.Command; contextValue?: string; retry?: TreeNode } = {},
  ) {
    super(id, parent);
  }

  /** For an error node: the node whose children failed to load, which its Retry action reloads. */
  get retryOf(): TreeNode | undefined {
    return this.options.retry;
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = this.options.icon ? new vscode.ThemeIcon(this.options.icon) : undefined;
    item.tooltip = this.options.tooltip;
    item.command = this.options.command;
    item.contextValue = this.options.contextValue ?? 'message';
    return item;
  }
}

/** The row of a grouping node (Splits, Versions, Public prompts, …). */
export function groupItem(id: string, label: string, icon: string, contextValue: string, description?: string): vscode.TreeItem {
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = id;
  item.iconPath = new vscode.ThemeIcon(icon);
  item.contextValue = contextValue;
  item.description = description;
  return item;
}

/** The context value of an error node: its row offers Retry (Refresh), which reloads what failed. */
export const LOAD_ERROR = 'loadError';

/**
 * A node describing why children could not be loaded, with the action that helps; `owner` is the node whose
 * children failed (a view's hidden root for a top-level list), which the row's Retry action reloads.
 */
export function errorNode(parent: TreeNode | undefined, idPrefix: string, err: unknown, owner?: TreeNode): MessageNode {
  const id = `${idPrefix}/error`;
  if (err instanceof NotSignedInError) {
    return new MessageNode(id, parent, vscode.l10n.t('Sign in to LangSmith…'), { icon: 'sign-in', command: { command: Commands.signIn, title: vscode.l10n.t('Sign In') } });
  }
  const retry = owner ?? parent;
  if (err instanceof LangSmithAuthError) {
    return new MessageNode(id, parent, vscode.l10n.t('The API key was rejected — sign in again…'), {
      icon: 'warning',
      tooltip: err.message,
      command: { command: Commands.signIn, title: vscode.l10n.t('Sign In') },
      contextValue: LOAD_ERROR,
      retry,
    });
  }
  if (err instanceof LangSmithNotFoundError) {
    return new MessageNode(id, parent, vscode.l10n.t('Not found — it may have been deleted. Refresh.'), { icon: 'warning', tooltip: err.message, contextValue: LOAD_ERROR, retry });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new MessageNode(id, parent, vscode.l10n.t('Could not load: {0}', message), {
    icon: 'error',
    tooltip: `${message}\n\n${vscode.l10n.t('Click to see the LangSmith log; Refresh tries again.')}`,
    command: { command: Commands.showLog, title: vscode.l10n.t('Show Log') },
    contextValue: LOAD_ERROR,
    retry,
  });
}

/**
 * Children that come from a lazy async iterator, one page at a time. Concurrent loads share one promise, so
 * expanding a node twice quickly never fetches twice. A reset starts afresh at once: a load still waiting (on a
 * server that does not answer) is left behind, and what it brings later is dropped.
 */
export class PagedChildren<T> {
  private iterator: AsyncIterator<T> | undefined;
  private readonly loaded: T[] = [];
  private done = false;
  private pending: Promise<void> | undefined;
  private failure: unknown;
  /** Counts resets: a load of an earlier generation changes nothing. */
  private generation = 0;

  constructor(
    private readonly open: () => Promise<AsyncIterator<T>>,
    readonly pageSize: number,
  ) {}

  get items(): readonly T[] {
    return this.loaded;
  }

  get hasMore(): boolean {
    return !this.done;
  }

  get error(): unknown {
    return this.failure;
  }

  get started(): boolean {
    return this.iterator !== undefined || this.done || this.failure !== undefined;
  }

  /** Loads the next page (or nothing if a load is already under way or all is loaded). */
  loadMore(): Promise<void> {
    if (!this.pending) {
      const load: Promise<void> = this.loadPage(this.generation).finally(() => {
        if (this.pending === load) this.pending = undefined;
      });
      this.pending = load;
    }
    return this.pending;
  }

  private async loadPage(generation: number): Promise<void> {
    const current = () => generation === this.generation;
    this.failure = undefined;
    try {
      let iterator = this.iterator;
      if (!iterator) {
        iterator = await this.open();
        if (!current()) {
          void iterator.return?.();
          return;
        }
        this.iterator = iterator;
      }
      for (let i = 0; i < this.pageSize; i++) {
        const next = await iterator.next();
        if (!current()) return;
        if (next.done) {
          this.done = true;
          return;
        }
        this.loaded.push(next.value);
      }
      // Peek ahead is not possible without consuming; the next page tells whether more exist.
    } catch (err) {
      if (current()) this.failure = err;
    }
  }

  reset(): void {
    this.generation++;
    this.pending = undefined;
    void this.iterator?.return?.();
    this.iterator = undefined;
    this.loaded.length = 0;
    this.done = false;
    this.failure = undefined;
  }
}

/** The "Load more" row at the end of a paged list. */
export class LoadMoreNode extends TreeNode {
  constructor(
    parent: TreeNode | undefined,
    idPrefix: string,
    readonly owner: { loadMore(): Promise<void> },
    private readonly shown: number,
  ) {
    super(`${idPrefix}/loadMore/${shown}`, parent);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.tooltip = vscode.l10n.t('{0} shown; load the next page', this.shown);
    item.contextValue = 'loadMore';
    item.command = { command: Commands.loadMore, title: vscode.l10n.t('Load More'), arguments: [this] };
    return item;
  }
}

/**
 * A node whose children are a paged list: the first page loads on expansion, "Load more" appends the next.
 * Subclasses map items to nodes and may add fixed nodes before the list.
 */
export abstract class PagedParentNode<T> extends TreeNode {
  protected readonly paged: PagedChildren<T>;
  private nodes = new Map<string, TreeNode>();

  constructor(
    id: string,
    parent: TreeNode | undefined,
    pageSize: number,
    readonly view: ViewContext,
  ) {
    super(id, parent);
    this.paged = new PagedChildren(() => this.openList(), pageSize);
  }

  protected abstract openList(): Promise<AsyncIterator<T>>;
  protected abstract itemNode(item: T): TreeNode;
  /** The parent its child nodes report: itself, or nothing when it is a view's hidden root. */
  protected get childParent(): TreeNode | undefined {
    return this.hidden ? undefined : this;
  }
  /** A view's invisible root: its children are the view's top-level items. */
  hidden = false;
  protected emptyLabel(): string {
    return vscode.l10n.t('Nothing here yet');
  }
  /** Fixed nodes shown before the paged list (e.g. "Splits", "Versions"). */
  protected fixedChildren(): TreeNode[] {
    return [];
  }

  async loadMore(): Promise<void> {
    await this.paged.loadMore();
    if (this.paged.error !== undefined) this.view.clients.observe(this.paged.error);
    this.view.redraw(this);
  }

  override async children(): Promise<TreeNode[]> {
    if (!this.paged.started) {
      await this.paged.loadMore();
      if (this.paged.error === undefined) this.view.clients.reportSuccess();
      else this.view.clients.observe(this.paged.error);
    }
    const fixed = this.fixedChildren();
    const parent = this.childParent;
    // Signed out, a view stays empty so that its sign-in welcome content shows.
    if (this.hidden && this.paged.error instanceof NotSignedInError) return [];
    if (this.paged.error !== undefined && this.paged.items.length === 0) return [...fixed, errorNode(parent, this.id, this.paged.error, this)];
    const items = this.paged.items.map((item) => this.cachedNode(item));
    const tail: TreeNode[] = [];
    if (this.paged.error !== undefined) tail.push(errorNode(parent, this.id, this.paged.error, this));
    else if (this.paged.hasMore) tail.push(new LoadMoreNode(parent, this.id, this, items.length));
    if (items.length === 0 && fixed.length === 0 && tail.length === 0) return [new MessageNode(`${this.id}/empty`, parent, this.emptyLabel(), { icon: 'info' })];
    return [...fixed, ...items, ...tail];
  }

  /** The child node with this id, when it has been shown. */
  shownChild(id: string): TreeNode | undefined {
    return this.nodes.get(id);
  }

  /** Reuses node objects across renders so their own loaded children survive a "Load more" of the parent. */
  private cachedNode(item: T): TreeNode {
    const fresh = this.itemNode(item);
    const existing = this.nodes.get(fresh.id);
    if (existing) return existing;
    this.nodes.set(fresh.id, fresh);
    return fresh;
  }

  override reset(): void {
    this.paged.reset();
    this.nodes = new Map();
  }
}

/** The TreeDataProvider of one view: a hidden root node whose children are the top-level items. */
export class NodeTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(readonly root: TreeNode) {}

  /** Rows go out without their tooltips (less to send for a page of 50); a tooltip is made when hovered. */
  getTreeItem(node: TreeNode): vscode.TreeItem {
    const item = node.treeItem();
    item.tooltip = undefined;
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    item.tooltip = node.treeItem().tooltip;
    return item;
  }

  getChildren(node?: TreeNode): Promise<TreeNode[]> {
    return (node ?? this.root).children();
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** Reloads one node's children (or the whole view). */
  refresh(node: TreeNode = this.root): void {
    node.reset();
    this.changed.fire(node === this.root ? undefined : node);
  }

  /**
   * Reloads a node's own row and its children: the children at once, the row when it has been read again (a
   * failed read leaves the row as it was; the children show any error).
   */
  async refreshWithRow(node: TreeNode, known?: Change): Promise<void> {
    this.refresh(node);
    if (node === this.root) return;
    if (known && node.takeKnown(known)) {
      this.redraw(node);
      return;
    }
    try {
      await node.reloadRow();
    } catch {
      return;
    }
    this.redraw(node);
  }

  /** Redraws a node without forgetting what it has loaded (after "Load more"). */
  redraw(node: TreeNode | undefined): void {
    this.changed.fire(node === this.root ? undefined : node);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
