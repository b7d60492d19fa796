// Feedback configs: how each feedback key of the workspace is scored. New, Edit (the same questions, prefilled)
// and Delete, from the "Feedback Configs" rows of the Annotation Queues view.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import type { FeedbackConfigBody, FeedbackConfigEntry } from '../client';
import { Commands } from '../constants';
import { FeedbackConfigNode } from '../views/queuesView';
import type { CommandRegistrar } from './registerCommand';
import { ask, choose, confirm, withProgress } from './ui';
import type { ChangePublisher } from '../protocol/changes';

type ConfigType = FeedbackConfigBody['type'];

/** LangSmith's longest feedback key (the client's FEEDBACK_KEY_MAX; the client loads on first use, not here). */
const FEEDBACK_KEY_MAX = 180;

/** A number as typed, or the message that says why it is not one. */
function numberOf(text: string): number | string {
  const t = text.trim();
  if (!t) return vscode.l10n.t('Type a number.');
  const n = Number(t);
  return Number.isFinite(n) ? n : vscode.l10n.t('“{0}” is not a number.', t);
}

export type Category = { value: number; label: string };

/** Categories typed as `0=incorrect, 1=correct` (commas or new lines between them), or what is wrong with them. */
export function parseCategories(text: string): Category[] | string {
  const parts = text.split(/[,\n]/).map((p) => p.trim()).filter(Boolean);
  if (!parts.length) return vscode.l10n.t('Type the categories as score=label, e.g. 0=incorrect, 1=correct.');
  const out: Category[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq < 0) return vscode.l10n.t('“{0}” is not score=label (e.g. 1=correct).', part);
    const score = part.slice(0, eq).trim();
    const label = part.slice(eq + 1).trim();
    const value = Number(score);
    if (!score || !Number.isFinite(value)) return vscode.l10n.t('The score of “{0}” is not a number.', part);
    if (!label) return vscode.l10n.t('The score {0} needs a label.', value);
    if (out.some((c) => c.value === value)) return vscode.l10n.t('The score {0} is used twice.', value);
    if (out.some((c) => c.label === label)) return vscode.l10n.t('The label “{0}” is used twice.', label);
    out.push({ value, label });
  }
  if (out.length < 2) return vscode.l10n.t('A categorical key needs at least two categories.');
  return out;
}

function categoriesText(c: FeedbackConfigBody | undefined): string {
  return (c?.categories ?? []).map((cat) => `${cat.value}=${cat.label ?? ''}`).join(', ');
}

/** Asks how a key is scored; `current` prefills every step (Edit). */
async function askConfig(title: string, current?: FeedbackConfigEntry): Promise<{ config: FeedbackConfigBody; lowerIsBetter: boolean }> {
  const now = current?.feedback_config;
  const types: Array<vscode.QuickPickItem & { type: ConfigType }> = [
    { type: 'continuous', label: vscode.l10n.t('Continuous'), detail: vscode.l10n.t('A score within a range, e.g. 0 to 1') },
    { type: 'categorical', label: vscode.l10n.t('Categorical'), detail: vscode.l10n.t('One of named categories, each with a score') },
    { type: 'freeform', label: vscode.l10n.t('Freeform'), detail: vscode.l10n.t('Free text, no score') },
  ];
  for (const t of types) if (t.type === now?.type) t.description = vscode.l10n.t('current');
  // The current type first, so Enter keeps it.
  types.sort((a, b) => Number(b.type === now?.type) - Number(a.type === now?.type));
  const { type } = await choose(types, { title, placeholder: vscode.l10n.t('How is this key scored?') });

  let config: FeedbackConfigBody;
  if (type === 'continuous') {
    const keep = now?.type === 'continuous';
    const minText = await ask({
      title,
      prompt: vscode.l10n.t('Lowest score'),
      value: keep && now.min != null ? String(now.min) : '0',
      validateInput: (v) => (typeof numberOf(v) === 'string' ? (numberOf(v) as string) : undefined),
    });
    const min = numberOf(minText) as number;
    const maxText = await ask({
      title,
      prompt: vscode.l10n.t('Highest score (above {0})', min),
      value: keep && now.max != null ? String(now.max) : '1',
      validateInput: (v) => {
        const n = numberOf(v);
        if (typeof n === 'string') return n;
        return n > min ? undefined : vscode.l10n.t('The highest score must be above the lowest ({0}).', min);
      },
    });
    config = { type, min, max: numberOf(maxText) as number };
  } else if (type === 'categorical') {
    const text = await ask({
      title,
      prompt: vscode.l10n.t('Categories as score=label, separated by commas (e.g. 0=incorrect, 1=correct)'),
      value: now?.type === 'categorical' ? categoriesText(now) : '0=incorrect, 1=correct',
      validateInput: (v) => {
        const parsed = parseCategories(v);
        return typeof parsed === 'string' ? parsed : undefined;
      },
    });
    config = { type, categories: parseCategories(text) as Category[] };
  } else {
    config = { type };
  }
  if (type === 'freeform') return { config, lowerIsBetter: false };
  const yes = vscode.l10n.t('Higher is better');
  const no = vscode.l10n.t('Lower is better');
  const order = current?.is_lower_score_better ? [no, yes] : [yes, no];
  const picked = await choose(order.map((label) => ({ label })), { title, placeholder: vscode.l10n.t('Which scores are better?') });
  return { config, lowerIsBetter: picked.label === no };
}

export function registerFeedbackConfigCommands(register: CommandRegistrar, clients: ClientService, changes: ChangePublisher): void {
  const refresh = () => changes.publish({ kind: 'feedbackConfigs' });

  register(Commands.createFeedbackConfig, async () => {
    const title = vscode.l10n.t('New feedback config');
    const key = await ask({
      title,
      prompt: vscode.l10n.t('Feedback key (e.g. correctness)'),
      validateInput: (v) =>
        !v.trim() ? vscode.l10n.t('Give the feedback key a name.') : v.trim().length > FEEDBACK_KEY_MAX ? vscode.l10n.t('A feedback key is at most {0} characters.', FEEDBACK_KEY_MAX) : undefined,
    });
    const existing = await clients.call((c) => c.feedbackConfigs.read([key]));
    if (existing.has(key)) throw new Error(vscode.l10n.t('The workspace already has a config for “{0}”: edit it instead.', key));
    const { config, lowerIsBetter } = await askConfig(vscode.l10n.t('New feedback config “{0}”', key));
    await withProgress(vscode.l10n.t('Creating the feedback config {0}', key), (signal) =>
      clients.call((c) => c.feedbackConfigs.create({ key, config, isLowerScoreBetter: lowerIsBetter, signal })),
    );
    refresh();
    void vscode.window.showInformationMessage(vscode.l10n.t('Created the feedback config “{0}”.', key));
  });

  register(Commands.editFeedbackConfig, async (node) => {
    if (!(node instanceof FeedbackConfigNode)) throw new Error(vscode.l10n.t('Select a feedback config to edit.'));
    const key = node.key;
    const { config, lowerIsBetter } = await askConfig(vscode.l10n.t('Edit the feedback config “{0}”', key), node.entry);
    await withProgress(vscode.l10n.t('Saving the feedback config {0}', key), (signal) =>
      clients.call((c) => c.feedbackConfigs.update({ key, config, isLowerScoreBetter: lowerIsBetter, signal })),
    );
    refresh();
    void vscode.window.showInformationMessage(vscode.l10n.t('Saved the feedback config “{0}”.', key));
  });

  register(Commands.deleteFeedbackConfig, async (node) => {
    if (!(node instanceof FeedbackConfigNode)) throw new Error(vscode.l10n.t('Select a feedback config to delete.'));
    const key = node.key;
    await confirm(
      vscode.l10n.t('Delete the feedback config “{0}”?', key),
      vscode.l10n.t('Feedback already given with this key stays; rubrics that use the key show it as free text until it has a config again.'),
      vscode.l10n.t('Delete'),
    );
    await withProgress(vscode.l10n.t('Deleting the feedback config {0}', key), (signal) => clients.call((c) => c.feedbackConfigs.delete(key, { signal })));
    refresh();
  });
}
