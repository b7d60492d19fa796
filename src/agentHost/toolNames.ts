// The names the agent tools have in the editor (no vscode import: the manifest generator uses it too).

/** The prefix of every contributed tool name: `langsmith_get_trace` is the agent tool `get_trace`. */
export const TOOL_PREFIX = 'langsmith_';

/** The tool names package.json contributes (`languageModelTools[].name`). */
export function contributedToolNames(packageJson: unknown): string[] {
  const tools = (packageJson as { contributes?: { languageModelTools?: { name?: unknown }[] } })?.contributes?.languageModelTools ?? [];
  return tools.map((t) => t.name).filter((n): n is string => typeof n === 'string' && n.startsWith(TOOL_PREFIX));
}
