// Experiments: compare two or more experiment projects of the same reference dataset.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { comparisonProblem, validateName } from '../common/validation';
import { ProjectNode } from '../views/projectsView';
import { Commands } from '../constants';
import type { CommandRegistrar } from './registerCommand';
import { ask, selection } from './ui';

const MAX_NAME = 200;

export function registerExperimentCommands(register: CommandRegistrar, clients: ClientService): void {
  register(Commands.compareExperiments, async (clicked, selected) => {
    const projects = selection(clicked, selected, (n): n is ProjectNode => n instanceof ProjectNode).map((n) => n.project);
    // Checked before anything is asked or sent.
    const problem = comparisonProblem(projects.map((p) => ({ name: p.name ?? p.id, referenceDatasetId: p.reference_dataset_id })));
    if (problem) throw new Error(problem);
    const title = vscode.l10n.t('Compare {0} experiments', projects.length);
    const name = await ask({
      title,
      prompt: vscode.l10n.t('Name of the comparison'),
      value: defaultName(projects.map((p) => p.name ?? p.id.slice(0, 8))),
      validateInput: validateName('comparison'),
    });
    const description = await ask({ title, prompt: vscode.l10n.t('Description (optional)') });
    const comparison = await clients.call((c) =>
      c.comparativeExperiments.create({
        name,
        experimentIds: projects.map((p) => p.id),
        referenceDatasetId: projects[0].reference_dataset_id ?? undefined,
        description: description || undefined,
      }),
    );
    void vscode.window.showInformationMessage(vscode.l10n.t('Created the comparison “{0}” of {1} experiments.', comparison.name ?? name, projects.length));
  });
}

/** "a vs b vs c", shortened to fit a name. */
function defaultName(names: string[]): string {
  const joined = names.join(' vs ');
  return joined.length <= MAX_NAME ? joined : `${joined.slice(0, MAX_NAME - 1)}…`;
}
