// The MCP server of the command line (`langsmith-workbench mcp`, dist/cli.js) offered to every MCP client in the
// editor through VS Code's MCP server definition provider, on the signed-in connection: while signed in, one stdio
// server runs the bundled command line with the extension host's own runtime. The definition VS Code keeps names the
// endpoint and the workspace only; the API key is added when VS Code starts the server (resolve), straight from
// SecretStorage into the child's environment — never into settings or a file. Signed in with the OAuth login of a
// LangSmith CLI profile, the child is told the profile's file and name only (LANGSMITH_CONFIG_FILE,
// LANGSMITH_PROFILE) and signs in with that login itself, renewing it in the file: no secret is handed over.
// Registered only where the API exists.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { isSignedIn, type Connection } from '../auth/connection';
import { lmApi, lmClasses, type McpDefinitionProvider, type McpStdioDefinition } from './lmApi';

/** The id contributed in package.json (`mcpServerDefinitionProviders`). */
export const MCP_PROVIDER_ID = 'langsmith-workbench.mcp';

export interface McpServerOptions {
  /** dist/cli.js in the installed extension. */
  cliPath: string;
  /** The extension's version: a new one tells VS Code to read the tools again. */
  version: string;
}

export class McpServerProvider implements McpDefinitionProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** Whether this VS Code took the provider. */
  readonly registered: boolean;

  constructor(
    private readonly clients: ClientService,
    private readonly options: McpServerOptions,
  ) {
    const lm = lmApi();
    const registered = typeof lm?.registerMcpServerDefinitionProvider === 'function' && typeof lmClasses().McpStdioServerDefinition === 'function';
    this.registered = registered;
    if (!registered) return;
    this.disposables.push(
      clients.connection.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed.fire()),
      lm!.registerMcpServerDefinitionProvider!(MCP_PROVIDER_ID, this),
    );
  }

  /** Signed in: the LangSmith server (no key in it); signed out: none. Asks nothing and sends nothing. */
  async provideMcpServerDefinitions(): Promise<McpStdioDefinition[]> {
    const Definition = lmClasses().McpStdioServerDefinition;
    const connection = await this.clients.connection.current();
    if (!Definition || !isSignedIn(connection)) return [];
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    const args = [this.options.cliPath, 'mcp', ...(folder ? ['--workspace-folder', folder.uri.fsPath] : [])];
    const env: Record<string, string | number | null> = {
      ...McpServerProvider.connectionEnv(connection),
      // The desktop editor's runtime is Electron: this makes it run the script as plain Node.
      ELECTRON_RUN_AS_NODE: '1',
    };
    return [new Definition('LangSmith', process.execPath, args, env, this.options.version)];
  }

  /**
   * The child's connection, without its key: endpoint and workspace, and for a profile's login the profile's file
   * and name, with any key of the editor's own environment removed (null) so that the login is the one used.
   */
  private static connectionEnv(connection: Connection): Record<string, string | null> {
    const env: Record<string, string | null> = { LANGSMITH_ENDPOINT: connection.endpoint, LANGSMITH_WORKSPACE_ID: connection.workspaceId ?? null };
    if (connection.apiKey === undefined && connection.profile) {
      Object.assign(env, { LANGSMITH_CONFIG_FILE: connection.profile.file, LANGSMITH_PROFILE: connection.profile.name, LANGSMITH_API_KEY: null, LANGCHAIN_API_KEY: null });
    }
    return env;
  }

  /** When VS Code starts the server: the key of the current connection into the child's environment (a login: none). */
  async resolveMcpServerDefinition(server: McpStdioDefinition): Promise<McpStdioDefinition> {
    const connection = await this.clients.connection.current();
    if (!isSignedIn(connection)) throw new Error(vscode.l10n.t('Sign in to LangSmith first (LangSmith: Sign In), then start the LangSmith MCP server again.'));
    // The connection of now, not of when the definition was offered (a sign-in may have changed it since).
    const env: Record<string, string | number | null> = { ...server.env, LANGSMITH_CONFIG_FILE: null, LANGSMITH_PROFILE: null, ...McpServerProvider.connectionEnv(connection) };
    if (connection.apiKey !== undefined) env['LANGSMITH_API_KEY'] = connection.apiKey;
    server.env = env;
    return server;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
