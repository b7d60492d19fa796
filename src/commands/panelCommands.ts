// Commands that open webview panels: the example editor (edit an example, write a new one) and the dataset
// version diff.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { DatasetNode, ExampleNode, SplitsNode } from '../views/datasetsView';
import { MessageNode } from '../views/treeNode';
import { Panels } from '../webviews/descriptors';
import type { PanelFrame } from '../webviews/panels';
import { compareVersions } from './compareVersions';
import { Commands } from '../constants';
import type { CommandRegistrar } from './registerCommand';

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
}
