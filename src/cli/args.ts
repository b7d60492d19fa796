// Command-line arguments: long options (`--name value`, `--name=value`), a few short ones, repeated options,
// `--` before positionals that start with a dash. Each command declares its options; anything else is an error
// that names the command and where its help is.

export interface OptionSpec {
  /** 'flag' takes no value; 'value' takes one; 'list' takes one and may repeat. */
  kind: 'flag' | 'value' | 'list';
  short?: string;
  /** The value's name in help, e.g. NAME. */
  arg?: string;
  help: string;
}

export interface CommandSpec {
  /** 'prompts plan'. */
  name: string;
  /** 'prompts plan [paths…]'. */
  usage: string;
  summary: string;
  /** Paragraphs after the options in --help. */
  details?: string[];
  options: Record<string, OptionSpec>;
  /** How many positionals at most (undefined: any). */
  maxPositionals?: number;
  minPositionals?: number;
}

export interface Parsed {
  flags: Set<string>;
  values: Map<string, string>;
  lists: Map<string, string[]>;
  positionals: string[];
}

/** A mistake in how the command was called: exit 1 with the message and where the help is. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const BIN = 'langsmith-workbench';

/** Options every command has. */
export const HELP_OPTION: Record<string, OptionSpec> = { help: { kind: 'flag', short: 'h', help: 'Show this help.' } };

export function parseArgs(spec: CommandSpec, argv: readonly string[]): Parsed {
  const options = { ...spec.options, ...HELP_OPTION };
  const byShort = new Map(Object.entries(options).flatMap(([name, o]) => (o.short ? [[o.short, name] as const] : [])));
  const out: Parsed = { flags: new Set(), values: new Map(), lists: new Map(), positionals: [] };
  const helpHint = `See ${BIN} ${spec.name} --help.`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    } else if (/^-[A-Za-z]$/.test(arg)) {
      name = byShort.get(arg.slice(1));
      if (!name) throw new UsageError(`Unknown option ${arg} for ${spec.name}. ${helpHint}`);
    } else {
      out.positionals.push(arg);
      continue;
    }
    if (name === 'api-key') {
      // Never echo what follows: it is a key.
      throw new UsageError(
        'There is no --api-key option: a key on the command line is visible to other users in the process list and stays in shell history. ' +
          'Set LANGSMITH_API_KEY, or pipe the key into --api-key-stdin.',
      );
    }
    const o = options[name];
    if (!o) throw new UsageError(`Unknown option --${name} for ${spec.name}. ${helpHint}`);
    if (o.kind === 'flag') {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value. ${helpHint}`);
      out.flags.add(name);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-')) throw new UsageError(`--${name} needs a value${o.arg ? ` (${o.arg})` : ''}. ${helpHint}`);
      value = next;
      i++;
    }
    if (o.kind === 'list') out.lists.set(name, [...(out.lists.get(name) ?? []), value]);
    else {
      if (out.values.has(name)) throw new UsageError(`--${name} is given twice. ${helpHint}`);
      out.values.set(name, value);
    }
  }
  if (out.flags.has('help')) return out;
  if (spec.maxPositionals !== undefined && out.positionals.length > spec.maxPositionals) {
    throw new UsageError(`Too many arguments for ${spec.name}: ${out.positionals.slice(spec.maxPositionals).join(' ')}. ${helpHint}`);
  }
  if (spec.minPositionals !== undefined && out.positionals.length < spec.minPositionals) {
    throw new UsageError(`${spec.name} needs ${spec.usage.slice(spec.name.length).trim()}. ${helpHint}`);
  }
  return out;
}

/** Wraps text at `width` columns, each line after the first indented by `indent`. */
function wrap(text: string, width: number, indent: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > width - indent) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

export function helpText(spec: CommandSpec): string {
  const options = { ...spec.options, ...HELP_OPTION };
  const rows = Object.entries(options).map(([name, o]) => [`${o.short ? `-${o.short}, ` : '    '}--${name}${o.arg ? ` ${o.arg}` : ''}${o.kind === 'list' ? ' (repeatable)' : ''}`, o.help] as const);
  const col = Math.min(36, Math.max(...rows.map(([l]) => l.length)) + 2);
  const lines = [`Usage: ${BIN} ${spec.usage}`, '', wrap(spec.summary, 100, 0), '', 'Options:'];
  for (const [left, help] of rows) {
    const pad = left.length + 2 > col ? `\n${' '.repeat(col + 2)}` : ' '.repeat(col - left.length);
    lines.push(`  ${left}${pad}${wrap(help, 100, col + 2)}`);
  }
  for (const d of spec.details ?? []) lines.push('', d.includes('\n') ? d : wrap(d, 100, 0));
  return `${lines.join('\n')}\n`;
}
