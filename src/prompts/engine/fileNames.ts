// The names of prompt files. Small and without packages: the extension uses it at activation, before the rest of
// the engine is loaded.

export const PROMPT_FILE_SUFFIX = '.prompt.yaml';
export const MANIFEST_FILE_SUFFIX = '.prompt.json';

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** A safe file name for a prompt: its name alone, no path separators, no `..`, no reserved device names. */
export function promptFileName(repo: string, suffix = PROMPT_FILE_SUFFIX): string {
  let base = repo.normalize('NFKC').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/\.{2,}/g, '.').replace(/^[.-]+|[.-]+$/g, '');
  if (!base || RESERVED.test(base.split('.')[0]!)) base = `prompt-${base || 'untitled'}`;
  return `${base.slice(0, 100)}${suffix}`;
}

export function isPromptFileName(name: string): boolean {
  return name.endsWith(PROMPT_FILE_SUFFIX) || name.endsWith(MANIFEST_FILE_SUFFIX);
}
