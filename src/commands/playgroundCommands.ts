// The playground: Run Prompt (a prompt file, a commit, a prompt's latest commit), the model endpoint's settings
// and key, and Show Trace (a run in the Projects view).
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { endpointProblem, hasStoredModelKey, LOCAL_MODEL, DEFAULT_MODEL, originOf, resolveModelEndpoint, storeModelKey } from '../auth/modelEndpoint';
import { normalizeEndpoint } from '../common/config';
import { Commands, ConfigKeys } from '../constants';
import { isPromptFile } from '../promptFile/fileNames';
import { ProjectNode, RunNode } from '../views/projectsView';
import { CommitNode, PromptNode } from '../views/promptsView';
import type { TreeNode } from '../views/treeNode';
import type { LangSmithViews } from '../views/views';
import { Panels } from '../webviews/descriptors';
import type { PanelFrame } from '../webviews/panels';
import type { CommandRegistrar } from './registerCommand';
import { ask } from './ui';

export function registerPlaygroundCommands(register: CommandRegistrar, clients: ClientService, views: LangSmithViews, panels: PanelFrame, secrets: vscode.SecretStorage): void {
  register(Commands.runPrompt, async (arg) => {
    if (arg instanceof CommitNode) {
      await panels.show(Panels.playground, { kind: 'commit', identifier: arg.promptNode.identifier, commit: arg.commit.commit_hash }, vscode.ViewColumn.Beside);
      return;
    }
    if (arg instanceof PromptNode) {
      const latest = await clients.call(async (c) => {
        for await (const commit of c.prompts.listCommits(arg.identifier, { limit: 1 })) return commit;
        return undefined;
      });
      if (!latest) throw new Error(vscode.l10n.t('{0} has no commits yet: push one first.', arg.identifier));
      await panels.show(Panels.playground, { kind: 'commit', identifier: arg.identifier, commit: latest.commit_hash }, vscode.ViewColumn.Beside);
      return;
    }
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri || !isPromptFile(uri.path)) throw new Error(vscode.l10n.t('Open a prompt file (*.prompt.yaml or *.prompt.json), or pick a commit in the Prompts view, to run it.'));
    if (uri.scheme === 'langsmith') throw new Error(vscode.l10n.t('This is a commit from LangSmith: run it from the Prompts view (Run Prompt on the commit).'));
    await panels.show(Panels.playground, { kind: 'file', uri: uri.toString() }, vscode.ViewColumn.Beside);
  });

  register(Commands.configureModel, () => configureModel(clients, secrets));

  register(Commands.revealRun, async (arg) => {
    const { projectName, runId } = (arg ?? {}) as { projectName?: unknown; runId?: unknown };
    if (typeof projectName !== 'string' || typeof runId !== 'string') throw new Error(vscode.l10n.t('Show Trace needs a project and a run.'));
    await revealRun(views, projectName, runId);
  });
}

/** Reloads the Projects view down to the run and selects it (its children expanded). */
async function revealRun(views: LangSmithViews, projectName: string, runId: string): Promise<void> {
  const view = views.projects;
  view.refresh();
  const project = (await view.root.children()).find((n: TreeNode): n is ProjectNode => n instanceof ProjectNode && n.project.name === projectName);
  if (!project) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Run {0} is in project “{1}”, which the Projects view does not list (filtered, or not on the first page).', runId, projectName));
    return;
  }
  view.refresh(project);
  const run = (await project.children()).find((n: TreeNode): n is RunNode => n instanceof RunNode && n.run.id === runId);
  if (!run) {
    await view.treeView.reveal(project, { expand: true, select: true, focus: true });
    void vscode.window.showInformationMessage(vscode.l10n.t('Run {0} is not among the latest runs of “{1}” yet: refresh the project in a moment.', runId, projectName));
    return;
  }
  await view.treeView.reveal(run, { expand: 3, select: true, focus: true });
}

/** Asks for the endpoint, the default model and the key (SecretStorage). */
async function configureModel(clients: ClientService, secrets: vscode.SecretStorage): Promise<void> {
  const config = vscode.workspace.getConfiguration(ConfigKeys.section);
  const connection = await clients.connection.current();
  const current = await resolveModelEndpoint(secrets, connection);
  const url = await ask({
    title: vscode.l10n.t('Playground model (1/3): endpoint'),
    prompt: vscode.l10n.t('The API root of an OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI v1, Ollama, vLLM…). Empty: the local server’s model when connected to one.'),
    value: config.get<string>(ConfigKeys.playgroundEndpoint, ''),
    placeHolder: current.source === 'localServer' ? current.url ?? undefined : 'https://api.openai.com/v1',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? endpointProblem(v.trim()) : undefined),
  });
  const model = await ask({
    title: vscode.l10n.t('Playground model (2/3): model'),
    prompt: vscode.l10n.t('The model runs use when the prompt names none (empty: {0} on the local server, {1} elsewhere).', LOCAL_MODEL, DEFAULT_MODEL),
    value: config.get<string>(ConfigKeys.playgroundModel, ''),
    ignoreFocusOut: true,
  });
  const target = url ? normalizeEndpoint(url) : current.source === 'localServer' ? current.url : null;
  let key = '';
  if (target) {
    const stored = await hasStoredModelKey(secrets, target);
    const sameServer = originOf(target) === originOf(connection.endpoint);
    key = await ask({
      title: vscode.l10n.t('Playground model (3/3): API key for {0}', originOf(target) ?? target),
      prompt: stored
        ? vscode.l10n.t('A key is stored for this endpoint. Leave empty to keep it; type “-” to remove it.')
        : sameServer
          ? vscode.l10n.t('Leave empty to use your LangSmith key (this is the same server).')
          : vscode.l10n.t('Leave empty when the endpoint needs no key (a local Ollama or vLLM).'),
      password: true,
      ignoreFocusOut: true,
    });
  }
  const scope = config.inspect<string>(ConfigKeys.playgroundEndpoint)?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update(ConfigKeys.playgroundEndpoint, url || undefined, scope);
  await config.update(ConfigKeys.playgroundModel, model || undefined, scope);
  if (target && key) await storeModelKey(secrets, target, key === '-' ? undefined : key);
}
