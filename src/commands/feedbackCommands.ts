// Feedback on a run: add it (key, score or value, comment, correction), list it and delete an entry, and copy a
// presigned link through which anyone can leave feedback without an API key.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import type { Feedback, Run } from '../client';
import {
  parseCorrection,
  parseFeedbackScore,
  validateCorrection,
  validateExpiryHours,
  validateFeedbackKey,
  validateFeedbackScore,
} from '../common/validation';
import { formatWhen, summarize } from '../text/format';
import { RunNode } from '../views/projectsView';
import { QueueRunNode } from '../views/queuesView';
import { Commands } from '../constants';
import type { CommandRegistrar } from './registerCommand';
import { ask, choose, confirm, withProgress } from './ui';

/** The run a feedback command acts on: a run in a project or in an annotation queue. */
/** The run a command is given: a tree row, or `{ runId, projectId? }` from a panel (read here). */
async function runOf(clients: ClientService, node: unknown, notARun: string): Promise<Run> {
  if (node instanceof RunNode || node instanceof QueueRunNode) return node.run;
  const { runId, projectId } = (typeof node === 'object' && node !== null ? node : {}) as { runId?: unknown; projectId?: unknown };
  if (typeof runId === 'string' && /^[0-9a-f-]{36}$/i.test(runId)) {
    return clients.call((c) => c.runs.read(runId, typeof projectId === 'string' && /^[0-9a-f-]{36}$/i.test(projectId) ? { projectId } : {}));
  }
  throw new Error(notARun);
}

function runLabel(run: Run): string {
  return run.name ?? run.id;
}

export function registerFeedbackCommands(register: CommandRegistrar, clients: ClientService): void {
  register(Commands.addFeedback, async (node) => {
    const run = await runOf(clients, node, vscode.l10n.t('Select a run to give feedback on.'));
    const title = vscode.l10n.t('Feedback on “{0}”', runLabel(run));
    const key = await ask({ title, prompt: vscode.l10n.t('Feedback key, e.g. correctness or user_score'), validateInput: validateFeedbackKey });
    const score = parseFeedbackScore(
      await ask({ title, prompt: vscode.l10n.t('Score: a number, e.g. 1, 0 or 0.75 (leave empty to give a text value instead)'), validateInput: validateFeedbackScore }),
    );
    const value = score === undefined ? await ask({ title, prompt: vscode.l10n.t('Value: a text such as a label or category (optional)') }) : '';
    const comment = await ask({ title, prompt: vscode.l10n.t('Comment (optional)') });
    const correction = parseCorrection(
      await ask({ title, prompt: vscode.l10n.t('Correction: what the right output would have been, as text or JSON (optional)'), validateInput: validateCorrection }),
    );
    await clients.call((c) =>
      c.feedback.create({ runId: run.id, key, score, value: value || undefined, comment: comment || undefined, correction }),
    );
    void vscode.window.showInformationMessage(vscode.l10n.t('Added “{0}” feedback to “{1}”.', key, runLabel(run)));
  });

  register(Commands.showFeedback, async (node) => {
    const run = await runOf(clients, node, vscode.l10n.t('Select a run to show the feedback of.'));
    const all = await withProgress(vscode.l10n.t('Loading the feedback of {0}', runLabel(run)), (signal) =>
      clients.call(async (c) => {
        const list: Feedback[] = [];
        for await (const f of c.feedback.list({ runIds: [run.id], signal })) list.push(f);
        return list;
      }),
    );
    if (!all.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('“{0}” has no feedback yet.', runLabel(run)));
      return;
    }
    type Item = vscode.QuickPickItem & { feedback: Feedback };
    const items: Item[] = all.map((f) => ({ label: f.key, description: feedbackSummary(f), detail: feedbackDetail(f), feedback: f }));
    const picked = await choose(items, {
      title: vscode.l10n.t('Feedback on “{0}” ({1})', runLabel(run), all.length),
      placeholder: vscode.l10n.t('Pick an entry to delete it, or press Escape to close'),
    });
    const f = picked.feedback;
    await confirm(
      f.score != null
        ? vscode.l10n.t('Delete the “{0}” feedback (score {1}) on “{2}”?', f.key, f.score, runLabel(run))
        : vscode.l10n.t('Delete the “{0}” feedback on “{1}”?', f.key, runLabel(run)),
      vscode.l10n.t('This cannot be undone.'),
      vscode.l10n.t('Delete'),
    );
    await clients.call((c) => c.feedback.delete(f.id));
    void vscode.window.showInformationMessage(vscode.l10n.t('Deleted the “{0}” feedback on “{1}”.', f.key, runLabel(run)));
  });

  register(Commands.copyFeedbackLink, async (node) => {
    const run = await runOf(clients, node, vscode.l10n.t('Select a run to create a feedback link for.'));
    const title = vscode.l10n.t('Feedback link for “{0}”', runLabel(run));
    const key = await ask({ title, prompt: vscode.l10n.t('Feedback key the link collects, e.g. user_score'), validateInput: validateFeedbackKey });
    const hours = Number(await ask({ title, prompt: vscode.l10n.t('Hours the link stays valid (1–720)'), value: '3', validateInput: validateExpiryHours }));
    const token = await clients.call((c) => c.feedback.createToken({ runId: run.id, feedbackKey: key, expiration: { hours } }));
    await vscode.env.clipboard.writeText(token.url);
    const until = token.expires_at ? new Date(token.expires_at).toLocaleString() : vscode.l10n.t('{0} h from now', hours);
    void vscode.window.showInformationMessage(vscode.l10n.t('Anyone with the link can give “{0}” feedback on “{1}” until {2}. The link is on the clipboard.', key, runLabel(run), until));
  });
}

/** Score or value, in a few characters. */
function feedbackSummary(f: Feedback): string | undefined {
  if (f.score != null) return vscode.l10n.t('score {0}', String(f.score));
  if (f.value != null && f.value !== '') return vscode.l10n.t('value {0}', summarize(f.value, 40));
  return undefined;
}

function feedbackDetail(f: Feedback): string | undefined {
  const parts = [
    f.comment ? summarize(f.comment, 80) : undefined,
    f.correction != null ? vscode.l10n.t('correction: {0}', summarize(f.correction, 40)) : undefined,
    f.feedback_source?.type ? vscode.l10n.t('source: {0}', String(f.feedback_source.type)) : undefined,
    formatWhen(f.created_at ?? undefined),
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : undefined;
}
