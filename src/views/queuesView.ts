// Annotation queues → the runs in each queue (with their index); the size is in the description.
import * as vscode from 'vscode';
import type { AnnotationQueue, QueueRun } from '../client';
import { Commands } from '../constants';
import { escapeMarkdown, formatWhen, markdownLines, summarize } from './format';
import { PagedParentNode, TreeNode, type ViewContext } from './treeNode';

const PAGE = 50;

export class QueuesRoot extends PagedParentNode<AnnotationQueue> {
  constructor(view: ViewContext) {
    super('queues', undefined, PAGE, view);
    this.hidden = true;
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
}

export class QueueNode extends PagedParentNode<QueueRun> {
  constructor(
    readonly queue: AnnotationQueue,
    parent: TreeNode | undefined,
    view: ViewContext,
  ) {
    super(`queue/${queue.id}`, parent, PAGE, view);
  }

  treeItem(): vscode.TreeItem {
    const q = this.queue;
    // The listing carries each queue's size (total_runs), so no call per queue is needed.
    const size = q.total_runs;
    const item = new vscode.TreeItem(q.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('checklist');
    item.description = typeof size === 'number' ? (size === 1 ? vscode.l10n.t('1 run') : vscode.l10n.t('{0} runs', size)) : undefined;
    item.tooltip = markdownLines([
      `**${escapeMarkdown(q.name)}**`,
      q.description ? escapeMarkdown(String(q.description)) : undefined,
      q.rubric_instructions ? vscode.l10n.t('Rubric: {0}', escapeMarkdown(String(q.rubric_instructions))) : undefined,
      vscode.l10n.t('id {0}', `\`${q.id}\``),
    ]);
    item.contextValue = 'queue';
    return item;
  }

  protected async openList(): Promise<AsyncIterator<QueueRun>> {
    const client = await this.view.clients.client();
    return client.annotationQueues.listRuns(this.queue.id);
  }

  protected itemNode(run: QueueRun): TreeNode {
    return new QueueRunNode(run, this, this.paged.items.indexOf(run));
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('The queue is empty');
  }
}

export class QueueRunNode extends TreeNode {
  constructor(
    readonly run: QueueRun,
    readonly queueNode: QueueNode,
    readonly index: number,
  ) {
    super(`${queueNode.id}/run/${run.queue_run_id ?? run.id}`, queueNode);
  }

  treeItem(): vscode.TreeItem {
    const r = this.run;
    const reviewed = !!r.last_reviewed_time;
    // 1-based, as people count.
    const item = new vscode.TreeItem(`${this.index + 1}. ${r.name ?? r.id}`, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = reviewed ? new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')) : new vscode.ThemeIcon('circle-large-outline');
    const asked = summarize(r.inputs, 50);
    // What the run was asked differs most between neighbours, so it comes before when it was added.
    item.description = [asked ? `“${asked}”` : undefined, r.added_at ? vscode.l10n.t('added {0}', formatWhen(r.added_at) ?? '') : undefined, reviewed ? vscode.l10n.t('reviewed') : undefined]
      .filter(Boolean)
      .join(' · ');
    item.tooltip = markdownLines([
      `**${escapeMarkdown(r.name ?? '')}** · ${escapeMarkdown(r.run_type ?? 'run')} · ${reviewed ? vscode.l10n.t('reviewed') : vscode.l10n.t('not reviewed yet')}`,
      asked ? vscode.l10n.t('Inputs: {0}', escapeMarkdown(summarize(r.inputs, 300))) : undefined,
      r.added_at ? vscode.l10n.t('Added to the queue {0}', escapeMarkdown(new Date(r.added_at).toLocaleString())) : undefined,
      vscode.l10n.t('run id {0}', `\`${r.id}\``),
    ]);
    item.contextValue = 'queueRun';
    item.command = { command: Commands.openTrace, title: vscode.l10n.t('Open Trace'), arguments: [this] };
    return item;
  }
}
