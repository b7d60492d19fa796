// The parts of VS Code's language-model API the agent fronts use: tools (finalized in VS Code 1.95) and MCP server
// definitions (1.101). The extension's floor is 1.90, whose typings have neither, so they are described here and
// looked up at run time: on an older VS Code both are absent and nothing is registered.
import * as vscode from 'vscode';

export interface ToolInvocationOptions {
  readonly input: unknown;
  readonly toolInvocationToken?: unknown;
}

export interface PreparedToolInvocation {
  invocationMessage?: string | vscode.MarkdownString;
  confirmationMessages?: { title: string; message: string | vscode.MarkdownString };
}

export interface LanguageModelToolImpl {
  invoke(options: ToolInvocationOptions, token: vscode.CancellationToken): Promise<unknown>;
  prepareInvocation?(options: { readonly input: unknown }, token: vscode.CancellationToken): Promise<PreparedToolInvocation>;
}

export interface McpStdioDefinition {
  readonly label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  version?: string;
  cwd?: vscode.Uri;
}

export interface McpDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): Promise<McpStdioDefinition[]>;
  resolveMcpServerDefinition?(server: McpStdioDefinition, token: vscode.CancellationToken): Promise<McpStdioDefinition | undefined>;
}

export interface LmApi {
  registerTool?(name: string, tool: LanguageModelToolImpl): vscode.Disposable;
  invokeTool?(name: string, options: ToolInvocationOptions, token?: vscode.CancellationToken): Thenable<{ content: unknown[] }>;
  readonly tools?: readonly { name: string; description: string; inputSchema?: object; tags: readonly string[] }[];
  registerMcpServerDefinitionProvider?(id: string, provider: McpDefinitionProvider): vscode.Disposable;
}

interface LmClasses {
  LanguageModelToolResult?: new (content: unknown[]) => { content: unknown[] };
  LanguageModelTextPart?: new (value: string) => { value: string };
  McpStdioServerDefinition?: new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => McpStdioDefinition;
}

/** VS Code's `lm` namespace as far as this extension uses it (members absent on older versions). */
export function lmApi(): LmApi | undefined {
  return (vscode as unknown as { lm?: LmApi }).lm;
}

/** The classes of the same API (absent on older versions). */
export function lmClasses(): LmClasses {
  return vscode as unknown as LmClasses;
}
