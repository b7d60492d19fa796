// Refresh, paging and filters of the four views.
import * as vscode from 'vscode';
import type { CommandRegistrar } from './registerCommand';
import { Commands, ContextKeys } from '../constants';
import type { LangSmithViews } from '../views/views';
import { LoadMoreNode, MessageNode, TreeNode } from '../views/treeNode';
import { ask } from './ui';

export function registerViewCommands(register: CommandRegistrar, views: LangSmithViews): void {
  register(Commands.refreshProjects, () => views.projects.refresh());
  register(Commands.refreshDatasets, () => views.datasets.refresh());
  register(Commands.refreshPrompts, () => views.prompts.refresh());
  register(Commands.refreshAnnotationQueues, () => views.queues.refresh());
  register(Commands.refreshItem, (node) => {
    // On an error row (Retry): reload the list that failed, which may be a whole view.
    if (node instanceof MessageNode && node.retryOf) views.refreshNode(node.retryOf);
    else if (node instanceof TreeNode) views.refreshNode(node);
  });
  register(Commands.loadMore, async (node) => {
    if (node instanceof LoadMoreNode) await node.owner.loadMore();
  });

  register(Commands.filterProjects, async () => {
    const root = views.projects.root;
    root.filters.nameContains =
      (await ask({ title: vscode.l10n.t('Filter projects by name'), prompt: vscode.l10n.t('Show projects whose name contains this text (empty: all)'), value: root.filters.nameContains ?? '' })) ||
      undefined;
    describeProjectFilters(views);
    views.projects.refresh();
  });
  register(Commands.toggleErrorsOnly, async () => {
    const root = views.projects.root;
    root.filters.errorsOnly = !root.filters.errorsOnly;
    await vscode.commands.executeCommand('setContext', ContextKeys.errorsOnly, root.filters.errorsOnly);
    describeProjectFilters(views);
    views.projects.refresh();
  });
  register(Commands.filterDatasets, async () => {
    const root = views.datasets.root;
    root.nameContains =
      (await ask({ title: vscode.l10n.t('Filter datasets by name'), prompt: vscode.l10n.t('Show datasets whose name contains this text (empty: all)'), value: root.nameContains ?? '' })) || undefined;
    views.datasets.treeView.description = root.nameContains ? vscode.l10n.t('name contains “{0}”', root.nameContains) : undefined;
    views.datasets.refresh();
  });
  register(Commands.searchPrompts, async () => {
    const root = views.prompts.root;
    root.nameQuery = (await ask({ title: vscode.l10n.t('Search your prompts'), prompt: vscode.l10n.t('Show your prompts matching this text (empty: all)'), value: root.nameQuery ?? '' })) || undefined;
    views.prompts.treeView.description = root.nameQuery ? vscode.l10n.t('matching “{0}”', root.nameQuery) : undefined;
    views.prompts.refresh();
  });
  register(Commands.searchPublicPrompts, async () => {
    const node = views.prompts.root.publicPrompts;
    node.query = (await ask({ title: vscode.l10n.t('Search public prompts'), prompt: vscode.l10n.t('Public prompts of other workspaces matching this text'), value: node.query ?? '' })) || undefined;
    views.prompts.refresh(node);
    await views.prompts.treeView.reveal(node, { expand: true, focus: false, select: false });
  });
}

function describeProjectFilters(views: LangSmithViews): void {
  const f = views.projects.root.filters;
  const parts = [f.nameContains ? vscode.l10n.t('name contains “{0}”', f.nameContains) : undefined, f.errorsOnly ? vscode.l10n.t('failed runs only') : undefined].filter(Boolean);
  views.projects.treeView.description = parts.length ? parts.join(' · ') : undefined;
}
