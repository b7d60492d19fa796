// What activation sets up after its first part (the connection, the palette's keys and the status bar, in
// extension.ts): the views, the document provider, the watchers, the panel frame, the commands and the agent
// tools, wired to the services the first part built.
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { LanguageModelTools } from './agentHost/languageModelTools';
import type { McpServerProvider } from './agentHost/mcpServer';
import type { ClientService } from './auth/clientService';
import type { ConnectionState } from './auth/connection';
import type { Credentials } from './auth/credentials';
import { bundleLoader } from './common/lazy';
import type { setPrompter } from './common/prompter';
import { Commands, SCHEME } from './constants';
import type { LangSmithViews } from './views/views';
import type { ChangeBus } from './common/changes';
import type { PanelFrame } from './webviews/panels';
import { isSignedIn } from './auth/connection';

/** What activate returns to the extension's own test suite (and to nobody else): the live services. */
export interface WorkbenchApi {
  readonly views: LangSmithViews;
  /** The change bus (tests publish on it, and watch what the writes publish). */
  readonly changes: ChangeBus;
  readonly clients: ClientService;
  readonly panels: PanelFrame;
  /** Scripts the answers to the commands' questions; returns the restore function. */
  readonly setPrompter: typeof setPrompter;
  /** The extension's secret storage (tests store a model key). */
  readonly secrets: vscode.SecretStorage;
  /** The language-model tools as registered (their confirmations are asserted) and the MCP server provider. */
  readonly agent: { tools: LanguageModelTools; mcp: McpServerProvider };
  /** Where the extension writes (its log, its storage, its state): the test that no key is written looks there. */
  readonly storage: Pick<vscode.ExtensionContext, 'logUri' | 'globalStorageUri' | 'globalState' | 'workspaceState'>;
  /** The extension's loader of bundles (tests point one at a missing file). */
  readonly bundleLoader: typeof bundleLoader;
}

/** The services activation's first part built, which everything set up here shares. */
export interface FirstServices {
  readonly log: vscode.LogOutputChannel;
  readonly credentials: Credentials;
  readonly connection: ConnectionState;
  readonly clients: ClientService;
}

export async function setUpWorkbench(context: vscode.ExtensionContext, { log, credentials, connection, clients }: FirstServices): Promise<WorkbenchApi | undefined> {
  // Code without a vscode import (the input rules) translates through @vscode/l10n, this bundle's copy of it.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  // Imported here, so that their modules are set up (their schemas built) now rather than when extension.js loads.
  const { signIn, signOut } = await import('./auth/signIn');
  const { registerDatasetCommands } = await import('./commands/datasetCommands');
  const { registerExperimentCommands } = await import('./commands/experimentCommands');
  const { registerFeedbackCommands } = await import('./commands/feedbackCommands');
  const { registerItemCommands } = await import('./commands/itemCommands');
  const { registerPromptCommands } = await import('./commands/promptCommands');
  const { registerFeedbackConfigCommands } = await import('./commands/feedbackConfigCommands');
  const { registerQueueCommands } = await import('./commands/queueCommands');
  const { setPrompter } = await import('./common/prompter');
  const { commandRegistrar } = await import('./commands/registerCommand');
  const { registerResourceCommands } = await import('./commands/resourceCommands');
  const { registerViewCommands } = await import('./commands/viewCommands');
  const { registerPanelCommands } = await import('./commands/panelCommands');
  const { registerReviewCommands } = await import('./commands/reviewCommands');
  const { registerRunsCommands } = await import('./commands/runsCommands');
  const { registerTraceCommands } = await import('./commands/traceCommands');
  const { registerPlaygroundCommands } = await import('./commands/playgroundCommands');
  const { registerPromptFileCommands } = await import('./commands/promptFileCommands');
  const { watchEvaluatorsFiles } = await import('./prompts/evaluatorsDiagnostics');
  const { watchPromptFiles } = await import('./prompts/promptFiles');
  const { watchPromptReferences } = await import('./prompts/references/watch');
  const { LangSmithDocuments } = await import('./views/documents');
  const { LangSmithViews } = await import('./views/views');
  const { Panels } = await import('./webviews/descriptors');
  const { PanelFrame, panelClients } = await import('./webviews/panels');
  const { LanguageModelTools } = await import('./agentHost/languageModelTools');
  const { McpServerProvider } = await import('./agentHost/mcpServer');
  const { contributedToolNames } = await import('./agentHost/toolNames');
  const views = new LangSmithViews(clients);
  context.subscriptions.push(views);
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SCHEME, new LangSmithDocuments(clients)));
  // Prompt references in source code: thin providers now, the features when a document first pulls a prompt.
  const references = watchPromptReferences(clients);
  context.subscriptions.push(references);

  // The change bus: commands, panels and agent tools publish what their writes changed; the trees, the prompt
  // references and the open panels (once the frame exists) update just that.
  const { ChangeBus } = await import('./common/changes');
  const changes = new ChangeBus(log);
  context.subscriptions.push(changes);
  context.subscriptions.push(
    changes.onDidChange((change) => {
      views.apply(change);
      if (change.kind === 'prompt' && change.name) references.promptChanged(change.name);
    }),
  );
  const panels = new PanelFrame(
    {
      extensionUri: context.extensionUri,
      log,
      clients: panelClients(clients),
      workspaceState: context.workspaceState,
      secrets: context.secrets,
      onDidChangeConnection: connection.onDidChange,
      changes,
      async connection() {
        const c = await connection.current();
        return { endpoint: c.endpoint, signedIn: isSignedIn(c) };
      },
    },
    Object.values(Panels),
  );
  context.subscriptions.push(panels, changes.onDidChange((change) => panels.changed(change)));

  const register = commandRegistrar(context, log);
  register(Commands.signIn, () => signIn(credentials, log));
  register(Commands.signOut, () => signOut(credentials, log));
  // Another endpoint (or another key): the sign-in flow, offered while signed in.
  register(Commands.switchEndpoint, () => signIn(credentials, log));
  register(Commands.showLog, () => log.show());
  register(Commands.openHello, () => panels.show(Panels.hello, 'hello'));
  registerViewCommands(register, views);
  registerItemCommands(register, clients);
  registerQueueCommands(register, clients, changes, panels);
  registerFeedbackConfigCommands(register, clients, changes);
  registerResourceCommands(register, clients, views, changes);
  registerDatasetCommands(register, clients, changes);
  registerPromptCommands(register, clients, changes);
  registerFeedbackCommands(register, clients);
  registerExperimentCommands(register, { clients, panels, secrets: context.secrets, workspaceState: context.workspaceState });
  registerPanelCommands(register, clients, panels);
  registerPromptFileCommands(register, clients, views, panels);
  registerPlaygroundCommands(register, clients, views, panels, context.secrets);
  registerTraceCommands(register, clients, changes, panels);
  registerReviewCommands(register, clients, panels);
  registerRunsCommands(register, clients, panels);
  context.subscriptions.push(watchPromptFiles(), watchEvaluatorsFiles(clients));
  // Agents: the tools in agent mode, and the MCP server for any MCP client in the editor (where VS Code has them).
  const agent = {
    tools: new LanguageModelTools(contributedToolNames(context.extension.packageJSON), clients, changes),
    mcp: new McpServerProvider(clients, { cliPath: vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath, version: String(context.extension.packageJSON.version ?? '') }),
  };
  context.subscriptions.push(agent.tools, agent.mcp);

  // Other extensions get nothing: these services can make authenticated calls.
  const storage = { logUri: context.logUri, globalStorageUri: context.globalStorageUri, globalState: context.globalState, workspaceState: context.workspaceState };
  return context.extensionMode === vscode.ExtensionMode.Test ? { views, changes, clients, panels, setPrompter, secrets: context.secrets, storage, agent, bundleLoader } : undefined;
}

