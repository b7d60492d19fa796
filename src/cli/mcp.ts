// `langsmith-workbench mcp`: the agent tools (src/agent) as an MCP server on standard input and output, for any
// MCP client (VS Code, Claude Code, Cursor…). No network listener. The connection comes from the LANGSMITH_*
// environment, else a profile of the LangSmith CLI, as for every command; `--read-only` offers only the reads.
// Standard output carries the protocol alone: what the server has to say goes to standard error.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { callTool, checkInput, findTool, inputSchemaOf, toolsFor, type ToolContext } from '../agent';
import type { CommandSpec, Parsed } from './args';
import { CONNECTION_HELP, CONNECTION_OPTIONS, connect } from './connection';
import { EXIT, type Io, type Output } from './io';

export const mcpSpec: CommandSpec = {
  name: 'mcp',
  usage: 'mcp [--read-only]',
  summary: 'Serves the LangSmith tools to an agent over MCP on standard input and output (no network listener).',
  options: {
    'read-only': { kind: 'flag', help: 'Offer only the tools that read: no prompt pushes, tags, datasets, examples, queue items or feedback.' },
    'workspace-folder': { kind: 'value', arg: 'DIR', help: 'The folder push_prompt reads prompt files from. Default: the current folder.' },
    ...CONNECTION_OPTIONS,
  },
  maxPositionals: 0,
  details: [
    'An MCP client starts this command and talks to it over its standard streams; see docs/AGENTS.md for VS Code, Claude Code and Cursor.',
    CONNECTION_HELP,
  ],
};

/** The MCP server with the tools registered (not yet connected). The SDK loads here, not with every command. */
export async function mcpServer(ctx: ToolContext, o: { readOnly: boolean; version: string }): Promise<McpServer> {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const server = new McpServer({ name: 'langsmith-workbench', version: o.version }, { capabilities: { tools: {} } });
  for (const tool of toolsFor({ readOnly: o.readOnly })) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: inputSchemaOf(tool), annotations: { title: tool.title, ...tool.annotations } },
      async (args: Record<string, unknown>) => {
        const a = await callTool(tool.name, args, ctx);
        return { content: [{ type: 'text' as const, text: a.text }], ...(a.isError ? { isError: true } : {}) };
      },
    );
  }
  // Bad input is answered with our sentence (each problem by field, and that nothing was done) instead of the
  // SDK's dump of the schema errors; the schema is the same.
  const inner = server as unknown as { validateToolInput?: (tool: unknown, args: unknown, name: string) => Promise<unknown> };
  if (typeof inner.validateToolInput === 'function') {
    inner.validateToolInput = async (_tool, args, name) => {
      const t = findTool(name);
      if (!t) throw new Error(`There is no tool “${name}”.`);
      const checked = checkInput(t, args);
      if (!checked.ok) throw new Error(checked.error);
      return args ?? {};
    };
  }
  return server;
}

export async function mcp(args: Parsed, io: Io, output: Output): Promise<number> {
  const { client, secrets, profile } = await connect(args, io, output);
  const ctx: ToolContext = { client, workspaceRoot: args.values.get('workspace-folder') || io.cwd, secrets };
  const readOnly = args.flags.has('read-only');
  const server = await mcpServer(ctx, { readOnly, version: typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : 'development' });
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  output.error(`langsmith-workbench mcp: serving ${toolsFor({ readOnly }).length} tools for ${client.apiUrl}${profile ? ` with the ${profile.login ? 'login' : 'api_key'} of ${profile.description}` : ''} on standard input/output.`);
  await closed;
  await server.close().catch(() => undefined);
  return EXIT.ok;
}

declare const __CLI_VERSION__: string | undefined;
