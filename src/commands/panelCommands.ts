// Commands that open webview panels: the example editor (edit an example, write a new one), the dataset version
// diff and a project's monitoring charts.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import type { Project } from '../client';
import { DatasetNode, ExampleNode, SplitsNode } from '../views/datasetsView';
import { ProjectNode } from '../views/projectsView';
import { MessageNode } from '../views/treeNode';
import { Panels } from '../webviews/descriptors';
import type { PanelFrame } from '../webviews/panels';
import { compareVersions } from './compareVersions';
import { Commands } from '../constants';
import type { CommandRegistrar } from './registerCommand';
import { choose } from './ui';

/** What "Edit Example" accepts besides a tree node: the ids, as other panels pass them. */
function exampleRef(arg: unknown): { datasetId: string; exampleId: string } | undefined {
  if (arg instanceof ExampleNode) return { datasetId: arg.datasetNode.dataset.id, exampleId: arg.example.id };
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { datasetId, exampleId } = arg as { datasetId?: unknown; exampleId?: unknown };
  return typeof datasetId === 'string' && typeof exampleId === 'string' ? { datasetId, exampleId } : undefined;
}

export function registerPanelCommands(register: CommandRegistrar, clients: ClientService, panels: PanelFrame): void {
  register(Commands.editExample, async (arg) => {
    const ref = exampleRef(arg);
    if (!ref) throw new Error(vscode.l10n.t('Select an example in the Datasets view to edit it.'));
    await panels.show(Panels.exampleEditor, { ...ref, isNew: false });
  });

  register(Commands.createExample, async (node) => {
    // On a dataset, or on one of its splits (the new example starts in that split).
    const split = node instanceof MessageNode && node.parent instanceof SplitsNode ? node.label : undefined;
    const dataset = node instanceof DatasetNode ? node : split !== undefined ? (node as MessageNode & { parent: SplitsNode }).parent.datasetNode : undefined;
    if (!dataset) throw new Error(vscode.l10n.t('Select a dataset (or one of its splits) to add an example to.'));
    await panels.show(Panels.exampleEditor, { datasetId: dataset.dataset.id, exampleId: randomUUID(), isNew: true, ...(split !== undefined ? { split } : {}) });
  });

  register(Commands.compareDatasetVersions, (node) => compareVersions(clients, panels, node));

  register(Commands.monitorProject, async (arg) => {
    const project = projectRef(arg) ?? (await pickProject(clients));
    await panels.show(Panels.monitor, project);
  });
}

/** What "Monitor Project" accepts besides a tree node: the ids, as other panels pass them. */
function projectRef(arg: unknown): { projectId: string; projectName: string } | undefined {
  if (arg instanceof ProjectNode) return { projectId: arg.project.id, projectName: arg.project.name ?? '' };
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { projectId, projectName } = arg as { projectId?: unknown; projectName?: unknown };
  return typeof projectId === 'string' && projectId ? { projectId, projectName: typeof projectName === 'string' ? projectName : '' } : undefined;
}

/** From the palette: the workspace's projects, most recently active first (as LangSmith lists them). */
async function pickProject(clients: ClientService): Promise<{ projectId: string; projectName: string }> {
  type Item = vscode.QuickPickItem & { project: Project };
  const items = clients.call(async (c) => {
    const list: Item[] = [];
    for await (const p of c.projects.list({ limit: 500, referenceFree: true })) {
      list.push({ label: p.name ?? p.id, description: typeof p.run_count === 'number' ? vscode.l10n.t('{0} runs', p.run_count) : undefined, project: p });
    }
    return list;
  });
  const picked = await choose(items, { title: vscode.l10n.t('Monitor a project'), placeholder: vscode.l10n.t('Choose a project') });
  return { projectId: picked.project.id, projectName: picked.project.name ?? '' };
}
