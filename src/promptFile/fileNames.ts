// The names of prompt files, and the prompt a file names. Small and without packages: the extension uses it at
// activation, before the rest of the engine is loaded.
import type { ParsedPromptFile } from './model';

export const PROMPT_FILE_SUFFIX = '.prompt.yaml';
export const MANIFEST_FILE_SUFFIX = '.prompt.json';

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** A safe file name for a prompt: its name alone, no path separators, no `..`, no reserved device names. */
export function promptFileName(repo: string, suffix = PROMPT_FILE_SUFFIX): string {
  let base = repo.normalize('NFKC').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/\.{2,}/g, '.').replace(/^[.-]+|[.-]+$/g, '');
  if (!base || RESERVED.test(base.split('.')[0]!)) base = `prompt-${base || 'untitled'}`;
  return `${base.slice(0, 100)}${suffix}`;
}

/** How a prompt file's name ends, in any case: YAML (`.prompt.yaml`, `.prompt.yml`) or a raw manifest (`.prompt.json`). */
const PROMPT_FILE = /\.prompt\.(ya?ml|json)$/i;

/** The kind of prompt file a path or file name is: 'yaml', 'json' (a raw manifest), or undefined for any other file. */
export function promptFileKind(pathOrName: string): 'yaml' | 'json' | undefined {
  const m = PROMPT_FILE.exec(pathOrName);
  if (!m) return undefined;
  return m[1]!.toLowerCase() === 'json' ? 'json' : 'yaml';
}

/** Whether a path or file name is a prompt file (YAML or a raw manifest). */
export function isPromptFile(pathOrName: string): boolean {
  return promptFileKind(pathOrName) !== undefined;
}

/** The prompt a file's name stands for: its last segment without the prompt-file suffix. */
export function promptNameOfFile(pathOrName: string): string {
  return (pathOrName.split('/').pop() ?? pathOrName).replace(PROMPT_FILE, '');
}

/** The path as a YAML prompt file: unchanged when it is one, else with `.prompt.yaml` in place of any `.yaml`. */
export function asPromptYamlPath(path: string): string {
  return promptFileKind(path) === 'yaml' ? path : `${path.replace(/\.ya?ml$/i, '')}${PROMPT_FILE_SUFFIX}`;
}

/** The prompt a file names, even when the file has problems elsewhere: its `prompt:` line is read on its own. */
export function promptNamedBy(parsed: ParsedPromptFile, text: string): string | undefined {
  if (parsed.file?.identifier) return parsed.file.identifier;
  return /^prompt:[ \t]*["']?([A-Za-z0-9][\w.-]*(?:\/[A-Za-z0-9][\w.-]*)?)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1];
}
