// Annotation queues → three sections per queue (needing my review, needing others', completed), each paging its
// items with the run each one holds; and, last, the workspace's feedback configs (how each key is scored).
import * as vscode from 'vscode';
import type { AnnotationQueue, FeedbackConfigEntry, LangSmithClient, QueueItem, QueueItemSection, Run } from '../client';
import { Commands } from '../constants';
import { askedText, escapeMarkdown, formatWhen, summarize } from '../text/format';
import { markdownLines } from './markdown';
import { errorNode, MessageNode, PagedParentNode, TreeNode, type ViewContext } from './treeNode';
import type { Change } from '../protocol/changes';

const PAGE = 50;

export class QueuesRoot extends PagedParentNode<AnnotationQueue> {
  /** The "Feedback Configs" row, kept so a command can reload it alone. */
  readonly feedbackConfigs: FeedbackConfigsNode;

  constructor(view: ViewContext) {
    super('queues', undefined, PAGE, view);
    this.hidden = true;
    this.feedbackConfigs = new FeedbackConfigsNode(view);
  }

  treeItem(): vscode.TreeItem {
    return new vscode.TreeItem(vscode.l10n.t('Annotation Queues'));
  }

  protected async openList(): Promise<AsyncIterator<AnnotationQueue>> {
    const client = await this.view.clients.client();
    return client.annotationQueues.list();
  }

  protected itemNode(queue: AnnotationQueue): TreeNode {
    return new QueueNode(queue, this.childParent, this.view);
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('No annotation queues yet');
  }

  override async children(): Promise<TreeNode[]> {
    const queues = await super.children();
    // Signed out the view stays empty (its welcome shows); otherwise the configs come after the queues.
    return queues.length ? [...queues, this.feedbackConfigs] : queues;
  }

  override reset(): void {
    super.reset();
    this.feedbackConfigs?.reset();
  }
}

/** How many items each section holds for me. */
export type SectionCounts = Record<QueueItemSection, number>;

const SECTIONS: ReadonlyArray<{ section: QueueItemSection; slug: string }> = [
  { section: 'needs_my_review', slug: 'mine' },
  { section: 'needs_others_review', slug: 'others' },
  { section: 'archived', slug: 'done' },
];

export class QueueNode extends TreeNode {
  /** The section counts, once the queue has been expanded. */
  private counts: SectionCounts | undefined;
  /** The counts were read before a reset: the row keeps them until the sections are read again, then redraws. */
  private countsStale = false;
  private sections: TreeNode[] | undefined;
  private loading: Promise<TreeNode[]> | undefined;

  constructor(
    public queue: AnnotationQueue,
    parent: TreeNode | undefined,
    readonly view: ViewContext,
  ) {
    super(`queue/${queue.id}`, parent);
  }

  treeItem(): vscode.TreeItem {
    const q = this.queue;
    const item = new vscode.TreeItem(q.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('checklist');
    item.description = this.counts ? countsText(this.counts) : sizeText(q.total_runs);
    item.tooltip = markdownLines([
      `**${escapeMarkdown(q.name)}**`,
      q.description ? escapeMarkdown(String(q.description)) : undefined,
      q.rubric_instructions ? vscode.l10n.t('Rubric: {0}', escapeMarkdown(String(q.rubric_instructions))) : undefined,
      q.rubric_items?.length ? vscode.l10n.t('Rubric keys: {0}', escapeMarkdown(q.rubric_items.map((r) => r.feedback_key).join(', '))) : undefined,
      vscode.l10n.t('id {0}', `\`${q.id}\``),
    ]);
    item.contextValue = 'queue';
    return item;
  }

  /** The section's count (once known). */
  countOf(section: QueueItemSection): number | undefined {
    return this.counts?.[section];
  }

  override children(): Promise<TreeNode[]> {
    if (this.sections) return Promise.resolve(this.sections);
    this.loading ??= this.loadSections().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async loadSections(): Promise<TreeNode[]> {
    try {
      // The three counts are read when the queue opens, not when the queues are listed (no call per queue).
      const counts = await this.view.clients.call((c) => c.annotationQueues.items.counts(this.queue.id));
      const redraw = !this.counts || this.countsStale;
      this.counts = counts;
      this.countsStale = false;
      this.sections = SECTIONS.map(({ section, slug }) => new QueueSectionNode(this, section, slug, this.view));
      // What reviewers are asked to do, where the queue is opened: a row below the sections (all of it in its
      // tooltip); a click opens the queue's settings, where it is edited.
      const rubric = rubricNode(this);
      if (rubric) this.sections.push(rubric);
      // The queue's own row now shows the counts too (a redraw reuses the loaded sections, so it asks nothing again).
      if (redraw) this.view.redraw(this);
      return this.sections;
    } catch (err) {
      this.view.clients.observe(err);
      return [errorNode(this, this.id, err, this)];
    }
  }

  /**
   * Reads the queue's size again (the listing is what carries it) and, once it has been opened, its counts (through
   * the sections' own load, so a reload that VS Code starts at the same time asks once): after items changed.
   */
  override async reloadRow(): Promise<void> {
    const id = this.queue.id;
    const [listed] = await Promise.all([
      this.view.clients.call(async (c) => {
        for await (const q of c.annotationQueues.list({ queueIds: [id], limit: 1 })) return q;
        return undefined;
      }),
      this.counts ? this.children() : undefined,
    ]);
    if (listed) this.queue = listed;
  }

  /** A queue not opened yet shows its size: the publisher's figure (an agent's add reads it) will do. */
  override takeKnown(change: Change): boolean {
    if (change.kind !== 'queue' || typeof change.size !== 'number' || this.counts) return false;
    this.queue = { ...this.queue, total_runs: change.size };
    return true;
  }

  override reset(): void {
    this.sections = undefined;
    this.loading = undefined;
    // The old counts stay on the row until the new ones are read (no flicker to the listing's size and back).
    this.countsStale = this.counts !== undefined;
  }
}

/** The queue's rubric as a row: its instructions (or else its keys) in short, the whole in the tooltip. */
export function rubricNode(queue: QueueNode): MessageNode | undefined {
  const q = queue.queue;
  const instructions = typeof q.rubric_instructions === 'string' ? q.rubric_instructions.trim() : '';
  const keys = (q.rubric_items ?? []).map((r) => r.feedback_key);
  if (!instructions && !keys.length) return undefined;
  const short = summarize(instructions || keys.join(', '), 120);
  const tooltip = markdownLines([
    instructions ? escapeMarkdown(instructions) : undefined,
    keys.length ? vscode.l10n.t('Rubric keys: {0}', escapeMarkdown(keys.join(', '))) : undefined,
  ]);
  return new MessageNode(`${queue.id}/rubric`, queue, vscode.l10n.t('Rubric: {0}', short), {
    icon: 'law',
    tooltip,
    contextValue: 'queueRubric',
    command: { command: Commands.editQueue, title: vscode.l10n.t('Edit Annotation Queue…'), arguments: [{ queueId: q.id }] },
  });
}

function sizeText(size: number | null | undefined): string | undefined {
  if (typeof size !== 'number') return undefined;
  return size === 1 ? vscode.l10n.t('1 run') : vscode.l10n.t('{0} runs', size);
}

function countsText(c: SectionCounts): string {
  const parts = [vscode.l10n.t('{0} to review', c.needs_my_review)];
  if (c.needs_others_review) parts.push(vscode.l10n.t('{0} with others', c.needs_others_review));
  parts.push(vscode.l10n.t('{0} done', c.archived));
  return parts.join(' · ');
}

/** An item of a section with the run it holds (read with the page's other runs in one request). */
export interface QueueRow {
  item: QueueItem;
  run: Run;
}

/** The runs of these items, in one request; an item whose run is gone keeps what the item says of it. */
async function rowsOf(client: LangSmithClient, items: QueueItem[], signal?: AbortSignal): Promise<QueueRow[]> {
  const ids = [...new Set(items.map((i) => i.run_id).filter((id): id is string => !!id))];
  const runs = new Map<string, Run>();
  if (ids.length) {
    for await (const run of client.runs.query({ runIds: ids, limit: ids.length, signal })) runs.set(run.id, run);
  }
  return items.map((item) => {
    const runId = item.run_id ?? item.id;
    return { item, run: runs.get(runId) ?? ({ id: runId, session_id: item.project_id ?? null, start_time: item.start_time ?? null } as Run) };
  });
}

export class QueueSectionNode extends PagedParentNode<QueueRow> {
  constructor(
    readonly queueNode: QueueNode,
    readonly section: QueueItemSection,
    slug: string,
    view: ViewContext,
  ) {
    super(`${queueNode.id}/${slug}`, queueNode, PAGE, view);
  }

  get queue(): AnnotationQueue {
    return this.queueNode.queue;
  }

  treeItem(): vscode.TreeItem {
    const count = this.queueNode.countOf(this.section);
    const name =
      this.section === 'needs_my_review' ? vscode.l10n.t('Needs my review') : this.section === 'needs_others_review' ? vscode.l10n.t('Needs others’ review') : vscode.l10n.t('Completed');
    const label = count === undefined ? name : `${name} (${count})`;
    const item = new vscode.TreeItem(label, count === 0 ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.section === 'needs_my_review' ? 'inbox' : this.section === 'needs_others_review' ? 'organization' : 'pass');
    item.contextValue = 'queueSection';
    return item;
  }

  protected async openList(): Promise<AsyncIterator<QueueRow>> {
    const client = await this.view.clients.client();
    const queueId = this.queue.id;
    const section = this.section;
    // One page of items, then one request for their runs: never a request per item.
    return (async function* () {
      let cursor: string | null = null;
      do {
        const page = await client.annotationQueues.items.page(queueId, { section, cursor, pageSize: PAGE });
        if (!page.items.length) return;
        yield* await rowsOf(client, page.items);
        cursor = page.nextCursor;
      } while (cursor);
    })();
  }

  protected itemNode(row: QueueRow): TreeNode {
    return new QueueRunNode(row.run, row.item, this, this.paged.items.indexOf(row));
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('Nothing here');
  }
}

/**
 * An item of a queue: the run it holds. The review command gets the row itself and reads `queueId`, `itemId`
 * and `runId` from it; the run commands read `run`.
 */
export class QueueRunNode extends TreeNode {
  readonly queueNode: QueueNode;

  constructor(
    readonly run: Run,
    readonly item: QueueItem,
    readonly sectionNode: QueueSectionNode,
    readonly index: number,
  ) {
    super(`${sectionNode.id}/item/${item.id}`, sectionNode);
    this.queueNode = sectionNode.queueNode;
  }

  get queueId(): string {
    return this.queueNode.queue.id;
  }

  get itemId(): string {
    return this.item.id;
  }

  get runId(): string {
    return this.run.id;
  }

  get section(): QueueItemSection {
    return this.sectionNode.section;
  }

  private status(): string | undefined {
    if (this.section === 'archived') return vscode.l10n.t('done');
    if (this.section === 'needs_others_review') return vscode.l10n.t('waiting for others');
    if (this.item.reserved_by?.length) return vscode.l10n.t('reserved');
    return this.item.last_reviewed_time ? vscode.l10n.t('viewed') : undefined;
  }

  treeItem(): vscode.TreeItem {
    const r = this.run;
    const it = this.item;
    const done = this.section === 'archived';
    const status = this.status();
    // 1-based, as people count.
    const item = new vscode.TreeItem(`${this.index + 1}. ${r.name ?? r.id}`, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = done ? new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')) : new vscode.ThemeIcon('circle-large-outline');
    const asked = askedText(r.inputs, 50);
    const added = it.added_at ?? it.effective_added_at;
    // What the run was asked differs most between neighbours, so it comes before when it was added.
    item.description = [asked ? `“${asked}”` : undefined, added ? vscode.l10n.t('added {0}', formatWhen(added) ?? '') : undefined, status].filter(Boolean).join(' · ');
    item.tooltip = markdownLines([
      `**${escapeMarkdown(r.name ?? '')}** · ${escapeMarkdown(r.run_type ?? 'run')}${status ? ` · ${escapeMarkdown(status)}` : ''}`,
      asked ? vscode.l10n.t('Inputs: {0}', escapeMarkdown(summarize(r.inputs, 300))) : undefined,
      added ? vscode.l10n.t('Added to the queue {0}', escapeMarkdown(new Date(added).toLocaleString())) : undefined,
      it.completed_by?.length ? vscode.l10n.t('Completed by {0} reviewer(s)', it.completed_by.length) : undefined,
      vscode.l10n.t('run id {0}', `\`${r.id}\``),
    ]);
    item.contextValue = 'queueRun';
    item.command = { command: Commands.reviewQueue, title: vscode.l10n.t('Review'), arguments: [this] };
    return item;
  }
}

/** The workspace's feedback configs: one per key, shared by every queue whose rubric uses it. */
export class FeedbackConfigsNode extends PagedParentNode<FeedbackConfigEntry> {
  constructor(view: ViewContext) {
    // Its id starts as the queues' do, so Refresh and Retry find the view it is in.
    super('queue/feedback-configs', undefined, 100, view);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Feedback Configs'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('symbol-enum');
    item.tooltip = vscode.l10n.t('How each feedback key of the workspace is scored; rubrics of every queue use them.');
    item.contextValue = 'feedbackConfigs';
    return item;
  }

  protected async openList(): Promise<AsyncIterator<FeedbackConfigEntry>> {
    const client = await this.view.clients.client();
    return client.feedbackConfigs.list();
  }

  protected itemNode(entry: FeedbackConfigEntry): TreeNode {
    return new FeedbackConfigNode(entry, this);
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('No feedback configs yet');
  }
}

/** "categorical · incorrect / correct", "continuous 0–1 · lower is better", "freeform". */
export function configText(entry: Pick<FeedbackConfigEntry, 'feedback_config' | 'is_lower_score_better'>): string {
  const c = entry.feedback_config;
  let text: string;
  if (c.type === 'categorical') {
    const cats = [...(c.categories ?? [])].sort((a, b) => a.value - b.value);
    text = `${vscode.l10n.t('categorical')} · ${cats.map((cat) => cat.label ?? String(cat.value)).join(' / ')}`;
  } else if (c.type === 'continuous') {
    const range = c.min != null || c.max != null ? ` ${c.min ?? '−∞'}–${c.max ?? '∞'}` : '';
    text = `${vscode.l10n.t('continuous')}${range}`;
  } else text = vscode.l10n.t('freeform');
  return entry.is_lower_score_better ? `${text} · ${vscode.l10n.t('lower is better')}` : text;
}

export class FeedbackConfigNode extends TreeNode {
  constructor(
    readonly entry: FeedbackConfigEntry,
    parent: FeedbackConfigsNode,
  ) {
    super(`${parent.id}/${entry.feedback_key}`, parent);
  }

  get key(): string {
    return this.entry.feedback_key;
  }

  treeItem(): vscode.TreeItem {
    const e = this.entry;
    const item = new vscode.TreeItem(e.feedback_key, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('symbol-key');
    item.description = configText(e);
    item.tooltip = markdownLines([`**${escapeMarkdown(e.feedback_key)}**`, escapeMarkdown(configText(e)), e.modified_at ? vscode.l10n.t('Changed {0}', escapeMarkdown(formatWhen(e.modified_at) ?? '')) : undefined]);
    item.contextValue = 'feedbackConfig';
    return item;
  }
}
