// What is inside a dataset: create one from a CSV file, rename it, export it for OpenAI fine-tuning, tag a
// version, edit splits, add and delete examples, and search examples similar to an inputs object.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { datasetNameFromFile, parseJsonObject, validateJsonObject, validateSplitName, validateTagName, validateWholeNumber } from '../common/datasetInput';
import { safeFileName } from '../common/fileNames';
import { DatasetNode, ExampleNode, VersionNode } from '../views/datasetsView';
import { documentUri, showDocument } from '../views/documents';
import { Commands } from '../constants';
import { prompter } from '../common/prompter';
import { UserCancelled, type CommandRegistrar } from './registerCommand';
import { inSteps } from './steps';
import { ask, choose, confirm, selection, validateName, withProgress } from './ui';
import type { ChangePublisher } from '../protocol/changes';
import { lazy } from '../common/lazy';

export function registerDatasetCommands(register: CommandRegistrar, clients: ClientService, changes: ChangePublisher): void {
  register(Commands.createDatasetFromCsv, async () => {
    const file = await prompter().openFile({
      title: vscode.l10n.t('New dataset from a CSV file'),
      openLabel: vscode.l10n.t('Use This File'),
      canSelectFiles: true,
      canSelectFolders: false,
      filters: { [vscode.l10n.t('CSV files')]: ['csv'] },
    });
    if (!file) throw new UserCancelled();
    const fileName = file.path.split('/').pop() || 'data.csv';
    const bytes = await vscode.workspace.fs.readFile(file);
    const { csvHeader } = await lazy.csv();
    const columns = csvHeader(new TextDecoder('utf-8').decode(bytes), fileName);

    const inputs = await prompter().pickMany(
      columns.map((c) => ({ label: c })),
      { title: vscode.l10n.t('New dataset from {0}: input columns', fileName), placeholder: vscode.l10n.t('Choose the columns that become the inputs of each example') },
    );
    if (!inputs) throw new UserCancelled();
    if (!inputs.length) throw new Error(vscode.l10n.t('Choose at least one input column: every example needs inputs. Nothing was uploaded.'));
    const inputKeys = inputs.map((i) => i.label);
    const rest = columns.filter((c) => !inputKeys.includes(c));
    let outputKeys: string[] = [];
    if (rest.length) {
      const outputs = await prompter().pickMany(
        rest.map((c) => ({ label: c })),
        { title: vscode.l10n.t('New dataset from {0}: output columns', fileName), placeholder: vscode.l10n.t('Choose the reference output columns (none is fine)') },
      );
      if (!outputs) throw new UserCancelled();
      outputKeys = outputs.map((o) => o.label);
    }
    const name = await ask({
      title: vscode.l10n.t('New dataset from a CSV file (name)'),
      prompt: vscode.l10n.t('Dataset name'),
      value: datasetNameFromFile(fileName),
      validateInput: validateName('dataset'),
    });
    const description = await ask({ title: vscode.l10n.t('New dataset from a CSV file (description)'), prompt: vscode.l10n.t('Description (optional)') });

    const dataset = await withProgress(vscode.l10n.t('Uploading {0} as “{1}”', fileName, name), (signal) =>
      clients.call((c) => c.datasets.uploadCsv({ csv: bytes, fileName, inputKeys, outputKeys, name, description: description || undefined, signal })),
    );
    changes.publish({ kind: 'dataset' });
    const count = dataset.example_count;
    void vscode.window.showInformationMessage(
      typeof count !== 'number'
        ? vscode.l10n.t('Created the dataset “{0}”.', dataset.name)
        : count === 1
          ? vscode.l10n.t('Created the dataset “{0}” with 1 example.', dataset.name)
          : vscode.l10n.t('Created the dataset “{0}” with {1} examples.', dataset.name, count),
    );
  });

  register(Commands.renameDataset, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error(vscode.l10n.t('Select a dataset to rename.'));
    const old = node.dataset.name;
    const name = await ask({ title: vscode.l10n.t('Rename “{0}”', old), prompt: vscode.l10n.t('New dataset name'), value: old, validateInput: validateName('dataset') });
    if (name === old) return;
    await clients.call((c) => c.datasets.update(node.dataset.id, { name }));
    changes.publish({ kind: 'dataset' });
  });

  register(Commands.exportDatasetForFineTuning, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error(vscode.l10n.t('Select a dataset to export.'));
    // The server's name never becomes a path: no separators, dots, device names or control characters; not too long.
    const fileName = safeFileName(node.dataset.name, '.jsonl', 'dataset');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await prompter().saveFile({
      title: vscode.l10n.t('Export “{0}” for OpenAI fine-tuning', node.dataset.name),
      saveLabel: vscode.l10n.t('Export'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : undefined,
      filters: { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
    });
    if (!target) throw new UserCancelled();
    const lines = await withProgress(vscode.l10n.t('Exporting {0}', node.dataset.name), (signal) =>
      clients.call((c) => c.datasets.readOpenAiFineTuning({ datasetId: node.dataset.id, signal })),
    );
    const text = lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : '');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    const written = target.path.split('/').pop() ?? '';
    const openFile = vscode.l10n.t('Open File');
    const message = lines.length === 1 ? vscode.l10n.t('Wrote 1 example to {0}.', written) : vscode.l10n.t('Wrote {0} examples to {1}.', lines.length, written);
    void vscode.window.showInformationMessage(message, openFile).then((choice) => {
      if (choice === openFile) void vscode.window.showTextDocument(target);
    });
  });

  register(Commands.tagDatasetVersion, async (node) => {
    if (!(node instanceof VersionNode)) throw new Error(vscode.l10n.t('Select a version of a dataset to tag.'));
    const dataset = node.versionsNode.datasetNode.dataset;
    const tag = await ask({
      title: vscode.l10n.t('Tag the version of “{0}” as of {1}', dataset.name, node.version.as_of),
      prompt: vscode.l10n.t('Tag name (moves the tag here if it is on another version)'),
      placeHolder: vscode.l10n.t('e.g. prod or v2'),
      validateInput: validateTagName,
    });
    await clients.call((c) => c.datasets.updateTag({ datasetId: dataset.id, asOf: node.version.as_of, tag }));
    changes.publish({ kind: 'dataset', datasetId: dataset.id });
  });

  register(Commands.addExamplesToSplit, async (clicked, selected) => {
    const groups = examplesByDataset(clicked, selected);
    const count = [...groups.values()].reduce((n, g) => n + g.exampleIds.length, 0);
    const existing = await splitsOf(clients, groups);
    type Item = vscode.QuickPickItem & { split?: string };
    const items: Item[] = [{ label: vscode.l10n.t('$(add) New split…'), alwaysShow: true }, ...existing.map((s) => ({ label: s, split: s }))];
    const picked = await choose(items, {
      title: count === 1 ? vscode.l10n.t('Add 1 example to a split') : vscode.l10n.t('Add {0} examples to a split', count),
      placeholder: vscode.l10n.t('Choose a split or make a new one'),
    });
    const split =
      picked.split ?? (await ask({ title: vscode.l10n.t('New split'), prompt: vscode.l10n.t('Split name'), placeHolder: vscode.l10n.t('e.g. test'), validateInput: validateSplitName }));
    await updateSplits(clients, changes, groups, split, false);
  });

  register(Commands.removeExamplesFromSplit, async (clicked, selected) => {
    const groups = examplesByDataset(clicked, selected);
    const count = [...groups.values()].reduce((n, g) => n + g.exampleIds.length, 0);
    const existing = await splitsOf(clients, groups);
    if (!existing.length) throw new Error(vscode.l10n.t('The dataset has no splits to remove examples from.'));
    const picked = await choose(
      existing.map((s) => ({ label: s })),
      {
        title: count === 1 ? vscode.l10n.t('Remove 1 example from a split') : vscode.l10n.t('Remove {0} examples from a split', count),
        placeholder: vscode.l10n.t('Choose the split'),
      },
    );
    await updateSplits(clients, changes, groups, picked.label, true);
  });

  register(Commands.searchSimilarExamples, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error(vscode.l10n.t('Select a dataset to search.'));
    const text = await ask({
      title: vscode.l10n.t('Search “{0}” (1/2)', node.dataset.name),
      prompt: vscode.l10n.t('Inputs to find similar examples for, as a JSON object'),
      placeHolder: '{"question": "How do I reset my password?"}',
      validateInput: validateJsonObject('inputs'),
    });
    const limitText = await ask({
      title: vscode.l10n.t('Search “{0}” (2/2)', node.dataset.name),
      prompt: vscode.l10n.t('How many examples (1–100)'),
      value: '5',
      validateInput: validateWholeNumber(1, 100),
    });
    const inputs = parseJsonObject(text);
    const limit = Number(limitText);
    await withProgress(vscode.l10n.t('Indexing {0}', node.dataset.name), (signal) => clients.call((c) => c.datasets.index({ datasetId: node.dataset.id, signal })));
    await showDocument(documentUri('similarExamples', JSON.stringify({ datasetId: node.dataset.id, inputs, limit }), `similar-in-${node.dataset.name}`));
  });

  register(Commands.deleteExamples, async (clicked, selected) => {
    const nodes = selection(clicked, selected, (n): n is ExampleNode => n instanceof ExampleNode);
    if (!nodes.length) throw new Error(vscode.l10n.t('Select one or more examples in the Datasets view first.'));
    await confirm(
      nodes.length === 1 ? vscode.l10n.t('Delete this example of “{0}”?', nodes[0].datasetNode.dataset.name) : vscode.l10n.t('Delete {0} examples?', nodes.length),
      vscode.l10n.t('Earlier versions of the dataset keep them; the latest version does not.'),
      vscode.l10n.t('Delete'),
    );
    await inSteps(nodes, {
      title: nodes.length === 1 ? vscode.l10n.t('Deleting 1 example') : vscode.l10n.t('Deleting {0} examples', nodes.length),
      step: (n, signal) => clients.call((c) => c.examples.delete(n.example.id, { signal })),
      progressed: (done, total) => vscode.l10n.t('Deleted {0} of {1} examples', done, total),
      after: () => {
        for (const datasetId of new Set(nodes.map((n) => n.datasetNode.dataset.id))) changes.publish({ kind: 'dataset', datasetId });
      },
    });
  });
}

interface ExampleGroup {
  datasetNode: DatasetNode;
  exampleIds: string[];
}

/** The selected examples, by dataset (a selection may span datasets). */
function examplesByDataset(clicked: unknown, selected: unknown): Map<string, ExampleGroup> {
  const nodes = selection(clicked, selected, (n): n is ExampleNode => n instanceof ExampleNode);
  if (!nodes.length) throw new Error(vscode.l10n.t('Select one or more examples in the Datasets view first.'));
  const groups = new Map<string, ExampleGroup>();
  for (const n of nodes) {
    const id = n.datasetNode.dataset.id;
    if (!groups.has(id)) groups.set(id, { datasetNode: n.datasetNode, exampleIds: [] });
    groups.get(id)!.exampleIds.push(n.example.id);
  }
  return groups;
}

async function splitsOf(clients: ClientService, groups: Map<string, ExampleGroup>): Promise<string[]> {
  const all = new Set<string>();
  for (const id of groups.keys()) for (const s of await clients.call((c) => c.datasets.listSplits({ datasetId: id }))) all.add(s);
  return [...all].sort();
}

async function updateSplits(clients: ClientService, changes: ChangePublisher, groups: Map<string, ExampleGroup>, splitName: string, remove: boolean): Promise<void> {
  // One request per dataset of the selection.
  await inSteps([...groups], {
    title: remove ? vscode.l10n.t('Removing examples from {0}', splitName) : vscode.l10n.t('Adding examples to {0}', splitName),
    step: ([datasetId, g], signal) => clients.call((c) => c.datasets.updateSplits({ datasetId, splitName, exampleIds: g.exampleIds, remove, signal })),
    progressed: (done, total) => vscode.l10n.t('Updated the split in {0} of {1} datasets', done, total),
    after: () => {
      for (const datasetId of groups.keys()) changes.publish({ kind: 'dataset', datasetId });
    },
  });
}
