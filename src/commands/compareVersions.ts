// "Compare Versions…": choose two versions of a dataset (by tag or timestamp) and open the diff panel. From a
// dataset or its Versions node the suggestion is the previous version against the latest; from a version (or
// tag) node, that version against the latest. From the palette, the dataset is asked for first.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import type { DatasetVersion } from '../client';
import type { VersionRef } from '../protocol/datasetDiff';
import { DatasetNode, VersionNode, VersionsNode } from '../views/datasetsView';
import { formatWhen } from '../text/format';
import { Panels } from '../webviews/descriptors';
import type { PanelFrame } from '../webviews/panels';
import { ask, choose } from './ui';

/** Versions offered in the pickers (newest first); older ones are reached by date and time. */
const VERSIONS_LISTED = 200;
const DATASETS_LISTED = 500;

type VersionItem = vscode.QuickPickItem & { version?: VersionRef };

export async function compareVersions(clients: ClientService, panels: PanelFrame, node: unknown): Promise<void> {
  const dataset = await datasetOf(clients, node);
  const clicked = node instanceof VersionNode ? node.version : undefined;
  const versions = await clients.call(async (c) => {
    const out: DatasetVersion[] = [];
    for await (const v of c.datasets.listVersions({ datasetId: dataset.id, limit: VERSIONS_LISTED })) out.push(v);
    return out;
  });
  if (versions.length < 2) {
    throw new Error(
      versions.length === 1
        ? vscode.l10n.t('“{0}” has one version: there is nothing to compare yet.', dataset.name)
        : vscode.l10n.t('“{0}” has no versions: there is nothing to compare yet.', dataset.name),
    );
  }
  const latest = versions[0]!;
  const suggestedFrom = clicked && clicked.as_of !== latest.as_of ? clicked : versions[1]!;
  const from = await pickVersion(versions, suggestedFrom, latest, {
    title: vscode.l10n.t('Compare versions of “{0}” (1/2): from', dataset.name),
    placeholder: vscode.l10n.t('The version to compare from (by tag or date)'),
  });
  const to = await pickVersion(
    versions.filter((v) => v.as_of !== from.asOf),
    from.asOf === latest.as_of ? versions[1]! : latest,
    latest,
    { title: vscode.l10n.t('Compare versions of “{0}” (2/2): {1} against', dataset.name, from.label), placeholder: vscode.l10n.t('The version to compare with (by tag or date)') },
  );
  if (to.asOf === from.asOf) throw new Error(vscode.l10n.t('Choose two different versions to compare.'));
  await panels.show(Panels.datasetDiff, { datasetId: dataset.id, datasetName: dataset.name, from, to });
}

async function datasetOf(clients: ClientService, node: unknown): Promise<{ id: string; name: string }> {
  if (node instanceof DatasetNode) return node.dataset;
  if (node instanceof VersionsNode) return node.datasetNode.dataset;
  if (node instanceof VersionNode) return node.versionsNode.datasetNode.dataset;
  const items = clients.call(async (c) => {
    const out: (vscode.QuickPickItem & { dataset: { id: string; name: string } })[] = [];
    for await (const d of c.datasets.list({ limit: DATASETS_LISTED })) {
      const count = d.example_count;
      out.push({ label: d.name, description: typeof count === 'number' ? vscode.l10n.t('{0} examples', count) : undefined, dataset: d });
    }
    if (!out.length) throw new Error(vscode.l10n.t('There are no datasets to compare versions of yet.'));
    return out;
  });
  return (await choose(items, { title: vscode.l10n.t('Compare versions of a dataset'), placeholder: vscode.l10n.t('Choose the dataset') })).dataset;
}

/** A tag names the version it is on; a version without one is named by its timestamp. */
export function versionLabel(v: DatasetVersion): string {
  return v.tags?.length ? v.tags.join(', ') : v.as_of;
}

async function pickVersion(versions: DatasetVersion[], suggested: DatasetVersion, latest: DatasetVersion, options: { title: string; placeholder: string }): Promise<VersionRef> {
  const item = (v: DatasetVersion): VersionItem => ({
    label: `${v.tags?.length ? '$(tag)' : '$(git-commit)'} ${versionLabel(v)}`,
    description: [v.tags?.length ? v.as_of : undefined, v === latest ? vscode.l10n.t('latest') : undefined, formatWhen(v.as_of)].filter(Boolean).join(' · '),
    version: { asOf: v.as_of, label: versionLabel(v) },
  });
  // The suggestion comes first, so Enter takes it.
  const ordered = [suggested, ...versions.filter((v) => v !== suggested)];
  const other: VersionItem = { label: vscode.l10n.t('$(calendar) A date and time…'), description: vscode.l10n.t('the dataset as it was at any moment') };
  const picked = await choose([...ordered.map(item), other], options);
  if (picked.version) return picked.version;
  const text = await ask({
    title: options.title,
    prompt: vscode.l10n.t('Date and time (ISO 8601, e.g. 2024-05-01T12:00:00Z): the dataset as it was then'),
    validateInput: (value) => (Number.isFinite(Date.parse(value.trim())) ? undefined : vscode.l10n.t('Enter a date and time such as 2024-05-01T12:00:00Z.')),
  });
  const asOf = new Date(Date.parse(text)).toISOString();
  return { asOf, label: asOf };
}
