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

export function registerResourceCommands(register: CommandRegistrar, clients: ClientService, views: LangSmithViews): void {
  register(Commands.shareRun, async (node) => {
    if (!(node instanceof RunNode)) throw new Error('Select a run to share.');
    const url = await clients.call((c) => c.runs.share(node.run.id));
    // The row now offers Stop Sharing instead of Share.
    node.shareToken = /\/public\/([^/]+)\/r/.exec(url)?.[1] ?? 'shared';
    views.refreshNode(node);
    await announceLink(`Anyone with the link can now see the trace “${node.run.name ?? node.run.id}”.`, url);
  });
  register(Commands.unshareRun, async (node) => {
    if (!(node instanceof RunNode)) throw new Error('Select a run to stop sharing.');
    await clients.call((c) => c.runs.unshare(node.run.id));
    node.shareToken = null;
    views.refreshNode(node);
    void vscode.window.showInformationMessage(`The public link of “${node.run.name ?? node.run.id}” no longer works.`);
  });
  register(Commands.shareDataset, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error('Select a dataset to share.');
    const share = await clients.call((c) => c.datasets.share({ datasetId: node.dataset.id }));
    node.shared = true;
    views.refreshNode(node);
    await announceLink(`Anyone with the link can now see the dataset “${node.dataset.name}”.`, share.url);
  });
  register(Commands.unshareDataset, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error('Select a dataset to stop sharing.');
    await clients.call((c) => c.datasets.unshare({ datasetId: node.dataset.id }));
    node.shared = false;
    views.refreshNode(node);
    void vscode.window.showInformationMessage(`The public link of “${node.dataset.name}” no longer works.`);
  });
  register(Commands.openPublicDataset, async () => {
    const client = await clients.client();
    const text = await ask({
      title: 'Open a shared dataset',
      prompt: 'A public dataset link (…/public/<token>/d) or its token',
      validateInput: (v) => {
        if (!v.trim()) return 'Paste a public dataset link or token.';
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
    const name = await ask({ title: 'New project (1/2)', prompt: 'Project name', validateInput: validateName('project') });
    const description = await ask({ title: 'New project (2/2)', prompt: 'Description (optional)' });
    const project = await clients.call((c) => c.projects.create({ name, description: description || undefined }));
    views.projects.refresh();
    void vscode.window.showInformationMessage(`Created the project “${project.name}”.`);
  });
  register(Commands.renameProject, async (node) => {
    if (!(node instanceof ProjectNode)) throw new Error('Select a project to rename.');
    const current = node.project.name ?? '';
    const name = await ask({ title: `Rename the project “${current}”`, prompt: 'New name', value: current, validateInput: validateName('project') });
    if (name === current) return;
    await clients.call((c) => c.projects.update(node.project.id, { name }));
    views.projects.refresh();
    void vscode.window.showInformationMessage(`Renamed the project “${current}” to “${name}”.`);
  });
  register(Commands.deleteProject, async (node) => {
    if (!(node instanceof ProjectNode)) throw new Error('Select a project to delete.');
    await confirm(`Delete the project “${node.project.name}” and all its runs?`, 'This cannot be undone.', 'Delete');
    await withProgress(`Deleting ${node.project.name}`, (signal) => clients.call((c) => c.projects.delete({ projectId: node.project.id, signal })));
    views.projects.refresh();
  });
  register(Commands.createDataset, async () => {
    const name = await ask({ title: 'New dataset (1/2)', prompt: 'Dataset name', validateInput: validateName('dataset') });
    const description = await ask({ title: 'New dataset (2/2)', prompt: 'Description (optional)' });
    const dataset = await clients.call((c) => c.datasets.create({ name, description: description || undefined }));
    views.datasets.refresh();
    void vscode.window.showInformationMessage(`Created the dataset “${dataset.name}”.`);
  });
  register(Commands.deleteDataset, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error('Select a dataset to delete.');
    await confirm(`Delete the dataset “${node.dataset.name}” with all its examples and versions?`, 'This cannot be undone.', 'Delete');
    await withProgress(`Deleting ${node.dataset.name}`, (signal) => clients.call((c) => c.datasets.delete({ datasetId: node.dataset.id, signal })));
    views.datasets.refresh();
  });
}

async function announceLink(message: string, url: string): Promise<void> {
  await vscode.env.clipboard.writeText(url);
  void vscode.window.showInformationMessage(`${message} The link is on the clipboard.`, 'Open Link').then((choice) => {
    if (choice) void vscode.env.openExternal(vscode.Uri.parse(url));
  });
}
