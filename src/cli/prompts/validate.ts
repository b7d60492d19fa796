// prompts validate: the editor's diagnostics of each prompt file, as compiler lines or GitHub Actions annotations.
import { UsageError, type CommandSpec, type Parsed } from '../args';
import { findPromptFiles, lineColumn, problemLine, readPromptFiles, type ReadFile } from '../files';
import { EXIT, type Io, type Output } from '../io';
import type { Problem } from '../../promptFile';

export const validateSpec: CommandSpec = {
  name: 'prompts validate',
  usage: 'prompts validate [paths…] [--format text|github]',
  summary:
    'Checks prompt files as the editor does (YAML, the format, templates, variables) and prints each problem as file:line:column: severity: message. ' +
    'Paths are prompt files or folders (searched recursively, without node_modules and .git); the default is the current folder. Needs no connection.',
  options: {
    format: { kind: 'value', arg: 'FORMAT', help: 'text (default) or github: GitHub Actions annotations (::error file=…,line=…,col=…::message).' },
  },
  details: ['Exit status: 0 when no file has an error (warnings and notes are printed, and allowed), 1 when one has, or on a usage error.'],
};

/** Annotation text: GitHub ends a message at a line break and reads %, CR and LF as escapes. */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const LEVEL: Record<Problem['severity'], string> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

export function annotation(f: ReadFile, p: Problem): string {
  const { line, column } = lineColumn(f.text, p.offset);
  return `::${LEVEL[p.severity]} file=${escapeProperty(f.shown)},line=${line},col=${column},title=${escapeProperty(`prompt file ${p.severity}`)}::${escapeData(p.message)}`;
}

export async function validate(args: Parsed, io: Io, output: Output): Promise<number> {
  const format = args.values.get('format') ?? 'text';
  if (format !== 'text' && format !== 'github') throw new UsageError(`--format is text or github, not “${format}”.`);
  const files = await readPromptFiles(io.cwd, await findPromptFiles(io.cwd, args.positionals));
  let errors = 0;
  let others = 0;
  for (const f of files) {
    for (const p of f.parsed.problems) {
      if (p.severity === 'error') errors++;
      else others++;
      output.line(format === 'github' ? annotation(f, p) : problemLine(f, p));
    }
  }
  const summary = `${files.length} prompt file${files.length === 1 ? '' : 's'}: ${errors} error${errors === 1 ? '' : 's'}, ${others} other problem${others === 1 ? '' : 's'}.`;
  // The summary goes to standard error in GitHub format: standard output stays annotations only.
  if (format === 'github') output.error(summary);
  else output.line(summary);
  return errors ? EXIT.error : EXIT.ok;
}
