// prompts plan: what applying the prompt files would do, as text or JSON, with terraform's exit codes (0 no
// change, 2 changes, 1 error). The reading and the decisions are the engine's (planPromptFiles).
import { planPromptFiles, tagNameProblem, type PromptFile, type PromptPlan } from '../../promptFile';
import { UsageError, type CommandSpec, type OptionSpec, type Parsed } from '../args';
import { CONNECTION_HELP, CONNECTION_OPTIONS, connect, type Connection } from '../connection';
import { findPromptFiles, problemLine, readPromptFiles, type ReadFile } from '../files';
import { EXIT, type Io, type Output } from '../io';

export const TAG_OPTION: Record<string, OptionSpec> = {
  tag: { kind: 'list', arg: 'NAME', help: 'A commit tag (staging, production, your own) to put on each prompt’s commit; one that exists moves.' },
};

export const planSpec: CommandSpec = {
  name: 'prompts plan',
  usage: 'prompts plan [paths…] [--tag NAME…] [--json]',
  summary:
    'Shows what `prompts apply` would do for every prompt file: create the prompt, update its attributes (description, readme, tags, visibility), ' +
    'add a commit (with what changes, message by message), add or move a commit tag — or nothing. Paths are prompt files or folders ' +
    '(searched recursively, without node_modules and .git); the default is the current folder. Changes nothing.',
  options: { ...TAG_OPTION, json: { kind: 'flag', help: 'Print the plan as JSON (for tools).' }, ...CONNECTION_OPTIONS },
  details: ['Exit status: 0 when nothing would change, 2 when something would, 1 on an error (a file that does not parse, another workspace’s prompt, no connection).', CONNECTION_HELP],
};

export interface Planned {
  file: ReadFile;
  prompt: PromptFile;
  plan: PromptPlan;
}

export interface Loaded {
  /** Files that can be planned. */
  ready: { file: ReadFile; prompt: PromptFile }[];
  /** Files that name no prompt (not an error: nothing to push). */
  skipped: ReadFile[];
  /** Lines of every error (file:line:column for problems). */
  errors: string[];
}

export function checkTags(args: Parsed): string[] {
  const tags = [...new Set(args.lists.get('tag') ?? [])];
  for (const t of tags) {
    const problem = tagNameProblem(t);
    if (!problem) continue;
    const why = /commit reference/.test(problem) ? ' LangSmith reserves “latest” and names of 8 or more hex digits: NAME:latest and NAME:<hash> pull commits, so a tag named like one could never be pulled.' : '';
    throw new UsageError(`--tag ${t}: ${problem}${why}`);
  }
  return tags;
}

/** Finds and reads the files; what cannot be planned is reported, not thrown. */
export async function loadFiles(io: Io, positionals: readonly string[]): Promise<Loaded> {
  const files = await readPromptFiles(io.cwd, await findPromptFiles(io.cwd, positionals));
  const out: Loaded = { ready: [], skipped: [], errors: [] };
  const byPrompt = new Map<string, ReadFile>();
  for (const f of files) {
    const errs = f.parsed.problems.filter((p) => p.severity === 'error');
    if (errs.length || !f.parsed.file) {
      out.errors.push(...errs.map((p) => problemLine(f, p)));
      if (!errs.length) out.errors.push(`${f.shown}:1:1: error: the file cannot be read as a prompt.`);
      continue;
    }
    const prompt = f.parsed.file;
    if (!prompt.identifier) {
      out.skipped.push(f);
      continue;
    }
    const key = prompt.identifier.replace(/^-\//, '');
    const first = byPrompt.get(key);
    if (first) {
      out.errors.push(`${f.shown}:1:1: error: ${first.shown} names the prompt “${prompt.identifier}” too; one file per prompt.`);
      continue;
    }
    byPrompt.set(key, f);
    out.ready.push({ file: f, prompt });
  }
  return out;
}

export async function makePlans(conn: Connection, loaded: Loaded, tags: string[]): Promise<Planned[]> {
  const plans = await planPromptFiles(conn.client, loaded.ready.map((r) => r.prompt), { tags });
  return plans.map((plan, i) => ({ ...loaded.ready[i]!, plan }));
}

const short = (hash: string | null | undefined) => (hash ? hash.slice(0, 8) : '');

function quoted(s: string): string {
  const one = s.replace(/\s*\n\s*/g, ' ⏎ ');
  return `“${one.length > 72 ? `${one.slice(0, 71)}…` : one}”`;
}

/** The plan of one file as lines of text. */
export function planLines(p: Planned): string[] {
  const { plan, file } = p;
  const head = `${file.shown} → ${plan.identifier}`;
  if (plan.refusal) return [`${head}: error:`, ...plan.refusal.split('\n').map((l) => `  ${l}`)];
  if (!plan.changed) return [`${head}: no changes`];
  const lines = [head];
  if (plan.create) {
    const attrs = [p.prompt.visibility === 'public' ? 'public' : 'private', p.prompt.description !== undefined ? `description ${quoted(p.prompt.description)}` : '', p.prompt.tags?.length ? `tags ${p.prompt.tags.join(', ')}` : ''];
    lines.push(`  + create the prompt (${attrs.filter(Boolean).join('; ')})`);
  }
  for (const a of plan.attributes) {
    lines.push(a.name === 'readme' ? '  ~ update readme' : `  ~ update ${a.name}: ${quoted(a.from)} → ${quoted(a.to)}`);
  }
  if (plan.commit) {
    lines.push(plan.commit.parent ? `  + commit on ${short(plan.commit.parent)}:` : '  + first commit:');
    if (!plan.commit.changes.length) lines.push('      (changes outside what the file shows)');
    for (const c of plan.commit.changes) {
      lines.push(`      ${c.section}: ${c.kind}`);
      for (const l of c.lines) lines.push(`        ${l.type === 'add' ? '+' : l.type === 'del' ? '-' : ' '} ${l.text}`);
    }
  }
  for (const t of plan.tags) {
    const where = plan.commit ? 'the new commit' : short(plan.latest);
    if (t.action === 'add') lines.push(`  + tag ${t.name} on ${where}`);
    else if (t.action === 'move') lines.push(`  ~ move tag ${t.name}${t.from ? ` from ${short(t.from)}` : ''} to ${where}`);
  }
  return lines;
}

export interface Summary {
  create: number;
  update: number;
  unchanged: number;
  skipped: number;
  errors: number;
}

export function summarize(planned: Planned[], loaded: Loaded): Summary {
  return {
    create: planned.filter((p) => !p.plan.refusal && p.plan.create).length,
    update: planned.filter((p) => !p.plan.refusal && !p.plan.create && p.plan.changed).length,
    unchanged: planned.filter((p) => !p.plan.refusal && !p.plan.changed).length,
    skipped: loaded.skipped.length,
    errors: loaded.errors.length + planned.filter((p) => p.plan.refusal).length,
  };
}

export function summaryLine(s: Summary): string {
  const parts = [`${s.create} to create`, `${s.update} to change`, `${s.unchanged} unchanged`];
  if (s.skipped) parts.push(`${s.skipped} skipped (no prompt: line)`);
  if (s.errors) parts.push(`${s.errors} error${s.errors === 1 ? '' : 's'}`);
  return `Plan: ${parts.join(', ')}.`;
}

export function printPlanText(output: Output, planned: Planned[], loaded: Loaded): void {
  for (const e of loaded.errors) output.error(e);
  for (const f of loaded.skipped) output.line(`${f.shown}: skipped: the file names no prompt (add \`prompt: <name>\`).`);
  for (const p of planned) {
    for (const l of planLines(p)) {
      if (p.plan.refusal) output.error(l);
      else output.line(l);
    }
  }
  output.line(summaryLine(summarize(planned, loaded)));
}

export function planJson(planned: Planned[], loaded: Loaded): unknown {
  return {
    files: [
      ...planned.map(({ file, plan }) => ({
        path: file.shown,
        prompt: plan.identifier,
        action: plan.refusal ? 'error' : plan.create ? 'create' : plan.changed ? 'update' : 'none',
        ...(plan.refusal ? { error: plan.refusal } : {}),
        latestCommit: plan.latest,
        attributes: plan.attributes,
        commit: plan.commit && { parent: plan.commit.parent, changes: plan.commit.changes.map((c) => ({ section: c.section, kind: c.kind, lines: c.lines })) },
        tags: plan.tags,
      })),
      ...loaded.skipped.map((f) => ({ path: f.shown, prompt: null, action: 'skip', reason: 'The file names no prompt.' })),
    ],
    errors: loaded.errors,
    summary: summarize(planned, loaded),
  };
}

export async function plan(args: Parsed, io: Io, output: Output, connection: (a: Parsed) => Promise<Connection> = (a) => connect(a, io, output)): Promise<number> {
  const tags = checkTags(args);
  const loaded = await loadFiles(io, args.positionals);
  const planned = loaded.ready.length ? await makePlans(await connection(args), loaded, tags) : [];
  if (args.flags.has('json')) output.line(JSON.stringify(planJson(planned, loaded), null, 2));
  else printPlanText(output, planned, loaded);
  const s = summarize(planned, loaded);
  if (s.errors) return EXIT.error;
  return s.create || s.update ? EXIT.changes : EXIT.ok;
}
