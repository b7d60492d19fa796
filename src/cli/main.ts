// The command line: `langsmith-workbench <command> <subcommand> [options]`. Plain Node on the API client and the
// prompt-file engine, never the editor's rooms. Commands are a table: a group (`prompts`) holds subcommands; a
// command of its own (an MCP server over stdio, `mcp`, say) is one more entry with its spec and its run.
import { BIN, UsageError, helpText, parseArgs, type CommandSpec, type Parsed } from './args';
import { describeError } from './connection';
import { EXIT, Output, processIo, type Io } from './io';
import { mcp, mcpSpec } from './mcp';
import { apply, applySpec } from './prompts/apply';
import { plan, planSpec } from './prompts/plan';
import { diff, diffSpec, pull, pullSpec } from './prompts/pull';
import { validate, validateSpec } from './prompts/validate';

export interface Command {
  spec: CommandSpec;
  run(args: Parsed, io: Io, output: Output): Promise<number>;
}

export interface Group {
  summary: string;
  commands: Record<string, Command>;
}

export const COMMANDS: Record<string, Group | Command> = {
  prompts: {
    summary: 'Prompt files against LangSmith: plan, apply, validate, pull, diff.',
    commands: {
      plan: { spec: planSpec, run: (a, io, o) => plan(a, io, o) },
      apply: { spec: applySpec, run: apply },
      validate: { spec: validateSpec, run: validate },
      pull: { spec: pullSpec, run: pull },
      diff: { spec: diffSpec, run: diff },
    },
  },
  mcp: { spec: mcpSpec, run: mcp },
};

const isGroup = (c: Group | Command): c is Group => 'commands' in c;

function topHelp(): string {
  const lines = [`Usage: ${BIN} <command> [options]`, '', 'LangSmith from the command line, on the same engine as the LangSmith Workbench editor extension.', '', 'Commands:'];
  for (const [name, c] of Object.entries(COMMANDS)) {
    if (isGroup(c)) for (const [sub, cmd] of Object.entries(c.commands)) lines.push(`  ${`${name} ${sub}`.padEnd(18)} ${cmd.spec.usage.slice(name.length + sub.length + 2)}`);
    else lines.push(`  ${name.padEnd(18)} ${c.spec.summary}`);
  }
  lines.push('', `Run \`${BIN} <command> --help\` for a command's options. Exit status: 0 success, 1 error; plan and diff exit 2 when something differs.`);
  return `${lines.join('\n')}\n`;
}

function groupHelp(name: string, g: Group): string {
  const lines = [`Usage: ${BIN} ${name} <subcommand> [options]`, '', g.summary, '', 'Subcommands:'];
  for (const cmd of Object.values(g.commands)) lines.push(`  ${cmd.spec.usage}`);
  lines.push('', `Run \`${BIN} ${name} <subcommand> --help\` for its options.`);
  return `${lines.join('\n')}\n`;
}

/** Runs one command line; the exit status. Never throws. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const output = new Output(io);
  output.hide(io.env['LANGSMITH_API_KEY']);
  output.hide(io.env['LANGCHAIN_API_KEY']);
  const [first, ...rest] = argv;
  try {
    if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
      io.out(topHelp());
      return first === undefined ? EXIT.error : EXIT.ok;
    }
    if (first === '--version' || first === '-v') {
      io.out(`${VERSION}\n`);
      return EXIT.ok;
    }
    const entry = COMMANDS[first];
    if (!entry) throw new UsageError(`Unknown command “${first}”. Commands: ${Object.keys(COMMANDS).join(', ')}. See ${BIN} --help.`);
    let command: Command;
    let args: readonly string[];
    if (isGroup(entry)) {
      const [sub, ...more] = rest;
      if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
        io.out(groupHelp(first, entry));
        return sub === undefined ? EXIT.error : EXIT.ok;
      }
      const found = entry.commands[sub];
      if (!found) throw new UsageError(`Unknown subcommand “${first} ${sub}”. Subcommands: ${Object.keys(entry.commands).join(', ')}. See ${BIN} ${first} --help.`);
      command = found;
      args = more;
    } else {
      command = entry;
      args = rest;
    }
    const parsed = parseArgs(command.spec, args);
    if (parsed.flags.has('help')) {
      io.out(helpText(command.spec));
      return EXIT.ok;
    }
    return await command.run(parsed, io, output);
  } catch (e) {
    const message = e instanceof UsageError ? e.message : describeError(e, output.endpoint ?? endpointOf(io), output.profile);
    output.error(`error: ${message}`);
    return EXIT.error;
  }
}

/** The endpoint an error message names (the flag's value is not at hand here; the environment's is). */
function endpointOf(io: Io): string {
  return io.env['LANGSMITH_ENDPOINT'] || io.env['LANGCHAIN_ENDPOINT'] || 'the endpoint';
}

declare const __CLI_VERSION__: string | undefined;
const VERSION = typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : 'development';

export async function main(): Promise<void> {
  const code = await run(process.argv.slice(2), processIo());
  // Exit once the output is written: kept-alive connections to LangSmith would hold the process open.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
