// Finding and reading prompt files: the paths given (files or folders, the current folder by default), folders
// searched recursively as the editor does, without node_modules and .git.
import fs from 'node:fs/promises';
import path from 'node:path';
import { isPromptFile, parsePromptText, type ParsedPromptFile, type Problem } from '../promptFile';
import { UsageError } from './args';

const SKIPPED = new Set(['node_modules', '.git']);

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIPPED.has(e.name)) await walk(p, out);
    } else if (e.isFile() && isPromptFile(e.name)) out.push(p);
  }
}

/** Shown path: relative to the current folder when inside it, with forward slashes (as CI annotations want). */
export function shown(cwd: string, p: string): string {
  const rel = path.relative(cwd, p);
  const s = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
  return s.split(path.sep).join('/');
}

/** The prompt files under the given paths, each once, in a stable order. */
export async function findPromptFiles(cwd: string, paths: readonly string[]): Promise<string[]> {
  const roots = paths.length ? paths : ['.'];
  const found: string[] = [];
  for (const given of roots) {
    const p = path.resolve(cwd, given);
    let stat;
    try {
      stat = await fs.stat(p);
    } catch {
      throw new UsageError(`${given}: no such file or folder.`);
    }
    if (stat.isDirectory()) {
      const before = found.length;
      await walk(p, found);
      if (found.length === before) throw new UsageError(`No prompt files in ${shown(cwd, p) || '.'} (looked for *.prompt.yaml, *.prompt.yml and *.prompt.json, skipping node_modules and .git).`);
    } else if (isPromptFile(p)) found.push(p);
    else throw new UsageError(`${given} is not a prompt file: prompt files end in .prompt.yaml, .prompt.yml or .prompt.json.`);
  }
  return [...new Set(found)];
}

export interface ReadFile {
  path: string;
  /** As printed. */
  shown: string;
  text: string;
  parsed: ParsedPromptFile;
}

export async function readPromptFiles(cwd: string, files: readonly string[]): Promise<ReadFile[]> {
  return Promise.all(
    files.map(async (p) => {
      const text = await fs.readFile(p, 'utf8');
      return { path: p, shown: shown(cwd, p), text, parsed: parsePromptText(text, p) };
    }),
  );
}

/** 1-based line and column of an offset (columns count UTF-16 units, as editors and GitHub do). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: at - start + 1 };
}

/** `file:line:column: severity: message`, the form compilers and editors read. */
export function problemLine(f: ReadFile, p: Problem): string {
  const { line, column } = lineColumn(f.text, p.offset);
  return `${f.shown}:${line}:${column}: ${p.severity}: ${p.message}`;
}
