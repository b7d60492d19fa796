// Refresh, paging and filters of the four views.
import * as vscode from 'vscode';
import type { CommandRegistrar } from './registerCommand';
import { Commands, ContextKeys } from '../constants';
import type { LangSmithViews } from '../views/views';
import { LoadMoreNode, TreeNode } from '../views/treeNode';
import { ask } from './ui';

export function registerViewCommands(register: CommandRegistrar, views: LangSmithViews): void {
  register(Commands.refreshProjects, () => views.projects.refresh());
  register(Commands.refreshDatasets, () => views.datasets.refresh());
  register(Commands.refreshPrompts, () => views.prompts.refresh());
  register(Commands.refreshAnnotationQueues, () => views.queues.refresh());
  register(Commands.refreshItem, (node) => {
    if (node instanceof TreeNode) views.refreshNode(node);
  });
  register(Commands.loadMore, async (node) => {
    if (node instanceof LoadMoreNode) await node.owner.loadMore();
  });

  register(Commands.filterProjects, async () => {
    const root = views.projects.root;
    root.filters.nameContains = (await ask({ title: 'Filter projects by name', prompt: 'Show projects whose name contains this text (empty: all)', value: root.filters.nameContains ?? '' })) || undefined;
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
    root.nameContains = (await ask({ title: 'Filter datasets by name', prompt: 'Show datasets whose name contains this text (empty: all)', value: root.nameContains ?? '' })) || undefined;
    views.datasets.treeView.description = root.nameContains ? `name contains “${root.nameContains}”` : undefined;
    views.datasets.refresh();
  });
  register(Commands.searchPrompts, async () => {
    const root = views.prompts.root;
    root.nameQuery = (await ask({ title: 'Search your prompts', prompt: 'Show your prompts matching this text (empty: all)', value: root.nameQuery ?? '' })) || undefined;
    views.prompts.treeView.description = root.nameQuery ? `matching “${root.nameQuery}”` : undefined;
    views.prompts.refresh();
  });
  register(Commands.searchPublicPrompts, async () => {
    const node = views.prompts.root.publicPrompts;
    node.query = (await ask({ title: 'Search public prompts', prompt: 'Public prompts of other workspaces matching this text', value: node.query ?? '' })) || undefined;
    views.prompts.refresh(node);
    await views.prompts.treeView.reveal(node, { expand: true, focus: false, select: false });
  });
}

function describeProjectFilters(views: LangSmithViews): void {
  const f = views.projects.root.filters;
  const parts = [f.nameContains ? `name contains “${f.nameContains}”` : undefined, f.errorsOnly ? 'failed runs only' : undefined].filter(Boolean);
  views.projects.treeView.description = parts.length ? parts.join(' · ') : undefined;
}
