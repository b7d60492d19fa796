// Sharing runs and datasets, reading a shared dataset, and creating/renaming/deleting projects and datasets.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { DatasetNode } from '../views/datasetsView';
import { documentUri, showDocument } from '../views/documents';
import { ProjectNode, RunNode } from '../views/projectsView';
import type { LangSmithViews } from '../views/views';
import { Commands } from '../constants';
import type { CommandRegistrar } from './registerCommand';
import { ask, confirm, validateName, withProgress } from './ui';
import type { ChangePublisher } from '../protocol/changes';

export function registerResourceCommands(register: CommandRegistrar, clients: ClientService, views: LangSmithViews, changes: ChangePublisher): void {
  register(Commands.shareRun, async (node) => {
    if (!(node instanceof RunNode)) throw new Error(vscode.l10n.t('Select a run to share.'));
    const url = await clients.call((c) => c.runs.share(node.run.id));
    // The row now offers Stop Sharing instead of Share.
    node.shareToken = /\/public\/([^/]+)\/r/.exec(url)?.[1] ?? 'shared';
    views.refreshNode(node);
    await announceLink(vscode.l10n.t('Anyone with the link can now see the trace “{0}”. The link is on the clipboard.', node.run.name ?? node.run.id), url);
  });
  register(Commands.unshareRun, async (node) => {
    if (!(node instanceof RunNode)) throw new Error(vscode.l10n.t('Select a run to stop sharing.'));
    await clients.call((c) => c.runs.unshare(node.run.id));
    node.shareToken = null;
    views.refreshNode(node);
    void vscode.window.showInformationMessage(vscode.l10n.t('The public link of “{0}” no longer works.', node.run.name ?? node.run.id));
  });
  register(Commands.shareDataset, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error(vscode.l10n.t('Select a dataset to share.'));
    const share = await clients.call((c) => c.datasets.share({ datasetId: node.dataset.id }));
    node.shared = true;
    views.refreshNode(node);
    await announceLink(vscode.l10n.t('Anyone with the link can now see the dataset “{0}”. The link is on the clipboard.', node.dataset.name), share.url);
  });
  register(Commands.unshareDataset, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error(vscode.l10n.t('Select a dataset to stop sharing.'));
    await clients.call((c) => c.datasets.unshare({ datasetId: node.dataset.id }));
    node.shared = false;
    views.refreshNode(node);
    void vscode.window.showInformationMessage(vscode.l10n.t('The public link of “{0}” no longer works.', node.dataset.name));
  });
  register(Commands.openPublicDataset, async () => {
    const client = await clients.client();
    const text = await ask({
      title: vscode.l10n.t('Open a shared dataset'),
      prompt: vscode.l10n.t('A public dataset link (…/public/<token>/d) or its token'),
      validateInput: (v) => {
        if (!v.trim()) return vscode.l10n.t('Paste a public dataset link or token.');
        try {
          client.public.parseDatasetToken(v.trim());
          return undefined;
        } catch (err) {
          return err instanceof Error ? err.message : String(err);
        }
      },
    });
    const token = client.public.parseDatasetToken(text);
    await showDocument(documentUri('publicDataset', token, `shared-dataset-${token.slice(0, 8)}`));
  });

  register(Commands.createProject, async () => {
    const name = await ask({ title: vscode.l10n.t('New project (1/2)'), prompt: vscode.l10n.t('Project name'), validateInput: validateName('project') });
    const description = await ask({ title: vscode.l10n.t('New project (2/2)'), prompt: vscode.l10n.t('Description (optional)') });
    const project = await clients.call((c) => c.projects.create({ name, description: description || undefined }));
    changes.publish({ kind: 'project' });
    void vscode.window.showInformationMessage(vscode.l10n.t('Created the project “{0}”.', project.name));
  });
  register(Commands.renameProject, async (node) => {
    if (!(node instanceof ProjectNode)) throw new Error(vscode.l10n.t('Select a project to rename.'));
    const current = node.project.name ?? '';
    const name = await ask({ title: vscode.l10n.t('Rename the project “{0}”', current), prompt: vscode.l10n.t('New name'), value: current, validateInput: validateName('project') });
    if (name === current) return;
    await clients.call((c) => c.projects.update(node.project.id, { name }));
    changes.publish({ kind: 'project' });
    void vscode.window.showInformationMessage(vscode.l10n.t('Renamed the project “{0}” to “{1}”.', current, name));
  });
  register(Commands.deleteProject, async (node) => {
    if (!(node instanceof ProjectNode)) throw new Error(vscode.l10n.t('Select a project to delete.'));
    await confirm(vscode.l10n.t('Delete the project “{0}” and all its runs?', node.project.name ?? ''), vscode.l10n.t('This cannot be undone.'), vscode.l10n.t('Delete'));
    await withProgress(vscode.l10n.t('Deleting {0}', node.project.name ?? ''), (signal) => clients.call((c) => c.projects.delete({ projectId: node.project.id, signal })));
    changes.publish({ kind: 'project' });
  });
  register(Commands.createDataset, async () => {
    const name = await ask({ title: vscode.l10n.t('New dataset (1/2)'), prompt: vscode.l10n.t('Dataset name'), validateInput: validateName('dataset') });
    const description = await ask({ title: vscode.l10n.t('New dataset (2/2)'), prompt: vscode.l10n.t('Description (optional)') });
    const dataset = await clients.call((c) => c.datasets.create({ name, description: description || undefined }));
    changes.publish({ kind: 'dataset' });
    void vscode.window.showInformationMessage(vscode.l10n.t('Created the dataset “{0}”.', dataset.name));
  });
  register(Commands.deleteDataset, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error(vscode.l10n.t('Select a dataset to delete.'));
    await confirm(vscode.l10n.t('Delete the dataset “{0}” with all its examples and versions?', node.dataset.name), vscode.l10n.t('This cannot be undone.'), vscode.l10n.t('Delete'));
    await withProgress(vscode.l10n.t('Deleting {0}', node.dataset.name), (signal) => clients.call((c) => c.datasets.delete({ datasetId: node.dataset.id, signal })));
    changes.publish({ kind: 'dataset' });
  });
}

async function announceLink(message: string, url: string): Promise<void> {
  await vscode.env.clipboard.writeText(url);
  const openLink = vscode.l10n.t('Open Link');
  void vscode.window.showInformationMessage(message, openLink).then((choice) => {
    if (choice === openLink) void vscode.env.openExternal(vscode.Uri.parse(url));
  });
}
