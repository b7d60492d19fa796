// The agent tools (src/agent) as VS Code language-model tools: usable in agent mode and referenced with `#`.
// Their names, descriptions and input schemas are contributed in package.json (`languageModelTools`, generated from
// the same table: scripts/languageModelTools.ts); here each contributed name gets its implementation. The tools'
// code loads (dist/agent.js) on the first call, never at activation. Reads run without asking; each write first
// shows the user exactly what it will change — the tool's own prepare(): the prompt diff, the examples, the runs and
// the queue — and runs only once confirmed. Registered only where the running VS Code has the API.
import * as vscode from 'vscode';
import type * as Agent from '../agent';
import type { ClientService } from '../auth/clientService';
import { lmApi, lmClasses, type LanguageModelToolImpl, type PreparedToolInvocation } from './lmApi';
import { fenced } from '../text/format';
import { TOOL_PREFIX } from './toolNames';
import { isSignedIn } from '../auth/connection';
import type { ChangePublisher } from '../protocol/changes';
import { lazy } from '../common/lazy';

/** The tools' code (dist/agent.js), loaded on the first call. */
export function loadAgent(): Promise<typeof Agent> {
  return lazy.agent();
}

export class LanguageModelTools implements vscode.Disposable {
  /** The registered implementations by contributed name (the extension's own tests call prepareInvocation). */
  readonly tools = new Map<string, LanguageModelToolImpl>();
  private readonly disposables: vscode.Disposable[] = [];

  /**
   * @param changes the change bus: each write tool tells it what it changed (ids and numbers) once the write went
   *   through, and the views and panels update that.
   */
  constructor(
    names: readonly string[],
    private readonly clients: ClientService,
    private readonly changes?: ChangePublisher,
  ) {
    const lm = lmApi();
    if (typeof lm?.registerTool !== 'function') return;
    for (const name of names) {
      const tool = this.implementation(name.slice(TOOL_PREFIX.length));
      this.tools.set(name, tool);
      this.disposables.push(lm.registerTool(name, tool));
    }
  }

  /** Whether this VS Code took the tools (false on versions before the tools API). */
  get registered(): boolean {
    return this.tools.size > 0;
  }

  private implementation(toolName: string): LanguageModelToolImpl {
    return {
      prepareInvocation: async (options, token) => {
        const agent = await loadAgent();
        const tool = agent.findTool(toolName);
        if (!tool) throw new Error(vscode.l10n.t('There is no LangSmith tool “{0}”.', toolName));
        const invocationMessage = vscode.l10n.t('LangSmith: {0}', tool.title);
        const input = options.input as { dryRun?: unknown } | undefined;
        // Reads, and a write asked only to describe itself, change nothing: no confirmation.
        if (tool.kind === 'read' || input?.dryRun === true) return { invocationMessage };
        const prepared = await agent.prepareTool(toolName, options.input, await this.context(token));
        if (prepared.isError) throw new Error(prepared.text);
        const message = new vscode.MarkdownString(`${vscode.l10n.t('This will change LangSmith:')}\n\n${fenced(prepared.text)}`);
        const confirmation: PreparedToolInvocation = { invocationMessage, confirmationMessages: { title: vscode.l10n.t('LangSmith: {0}?', tool.title), message } };
        return confirmation;
      },
      invoke: async (options, token) => {
        const agent = await loadAgent();
        const answer = await agent.callTool(toolName, options.input, await this.context(token));
        // An error the model can act on (bad input, not found, a refused key): VS Code hands the message to it.
        if (answer.isError) throw new Error(answer.text);
        const { LanguageModelToolResult, LanguageModelTextPart } = lmClasses();
        if (!LanguageModelToolResult || !LanguageModelTextPart) return { content: [{ value: answer.text }] };
        return new LanguageModelToolResult([new LanguageModelTextPart(answer.text)]);
      },
    };
  }

  /** The signed-in client, the workspace folder prompt files are read from, the key to keep out of answers. */
  private async context(token: vscode.CancellationToken): Promise<Agent.ToolContext> {
    const connection = await this.clients.connection.current();
    if (!isSignedIn(connection)) throw new Error(vscode.l10n.t('Not signed in to LangSmith. Ask the user to run “LangSmith: Sign In”, then try again.'));
    const client = await this.clients.client();
    const controller = new AbortController();
    if (token.isCancellationRequested) controller.abort();
    else token.onCancellationRequested(() => controller.abort());
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    const changes = this.changes;
    return {
      client,
      workspaceRoot: folder?.uri.fsPath,
      signal: controller.signal,
      secrets: connection.apiKey ? [connection.apiKey] : [],
      changed: changes ? (change) => changes.publish(change) : undefined,
    };
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.tools.clear();
  }
}
