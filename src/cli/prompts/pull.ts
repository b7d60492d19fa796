// prompts pull and prompts diff: a remote version written as a prompt file, as the editor's Pull Prompt and
// Compare with Remote write it.
import fs from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { isNotFound, type LangSmithClient } from '../../client';
import type { PulledCommit } from '../../client/resources/prompts';
import { parsePromptIdentifier } from '../../client/ids';
import {
  asPromptYamlPath,
  canonicalJson,
  firstError,
  fromManifest,
  parsePromptFile,
  parsePromptText,
  promptFileKind,
  promptFileName,
  promptNamedBy,
  remoteLikeLocal,
  rewritePromptFile,
  targetOf,
  toManifest,
  writePromptFile,
} from '../../promptFile';
import { UsageError, type CommandSpec, type Parsed } from '../args';
import { CONNECTION_HELP, CONNECTION_OPTIONS, connect } from '../connection';
import { shown } from '../files';
import { EXIT, type Io, type Output } from '../io';

export const pullSpec: CommandSpec = {
  name: 'prompts pull',
  usage: 'prompts pull NAME[:TAG|:COMMIT] [--out PATH] [--force]',
  summary:
    'Writes a prompt’s latest commit (or the commit a tag names, or a commit by its hash) into a prompt file, as the editor’s Pull Prompt does. ' +
    'NAME is a prompt of your workspace or owner/name. The file is ./NAME.prompt.yaml unless --out names a file or a folder.',
  options: {
    out: { kind: 'value', short: 'o', arg: 'PATH', help: 'The file to write, or a folder to write NAME.prompt.yaml into.' },
    force: { kind: 'flag', short: 'f', help: 'Replace a file that exists (its comments and key order are kept).' },
    ...CONNECTION_OPTIONS,
  },
  minPositionals: 1,
  maxPositionals: 1,
  details: ['Exit status: 0 when the file was written or already held that version, 1 on an error.', CONNECTION_HELP],
};

export const diffSpec: CommandSpec = {
  name: 'prompts diff',
  usage: 'prompts diff PATH [--ref TAG|COMMIT]',
  summary:
    'A unified diff of a prompt file against a remote version of its prompt (the latest commit unless --ref names a tag or a commit), ' +
    'the remote one written like the file (its layout, and the attributes the file sets), so the diff shows what differs in content.',
  options: { ref: { kind: 'value', short: 'r', arg: 'REF', help: 'A commit tag, a commit hash (or its first 8+ characters) or latest. Default latest.' }, ...CONNECTION_OPTIONS },
  minPositionals: 1,
  maxPositionals: 1,
  details: ['Exit status, as diff’s: 0 when they are the same, 2 when they differ, 1 on an error.', CONNECTION_HELP],
};

async function readRemoteVersion(client: LangSmithClient, identifier: string, ref: string) {
  const [pulled, repo, settings] = await Promise.all([
    client.prompts.pull(`${identifier}:${ref}`, { includeModel: true }).catch((e: unknown) => e),
    client.prompts.get(identifier),
    client.settings(),
  ]);
  if (!repo) throw new UsageError(`No prompt “${identifier}” on LangSmith at ${client.apiUrl}.`);
  if (isNotFound(pulled)) throw new UsageError(ref === 'latest' ? `The prompt “${identifier}” has no commits yet.` : `The prompt “${identifier}” has no commit or tag “${ref}”.`);
  if (pulled instanceof Error) throw pulled;
  const p = pulled as PulledCommit;
  return { manifest: p.manifest, commitHash: p.commit_hash, repo, handle: settings.tenant_handle ?? null };
}

async function readIfExists(p: string): Promise<string | undefined> {
  try {
    return await fs.readFile(p, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

export async function pull(args: Parsed, io: Io, output: Output): Promise<number> {
  const spec = args.positionals[0]!;
  let ref;
  try {
    ref = parsePromptIdentifier(spec);
  } catch (e) {
    throw new UsageError(`“${spec}” is not a prompt: use NAME, owner/NAME, NAME:TAG or NAME:COMMIT (${e instanceof Error ? e.message : String(e)}).`);
  }
  const identifier = ref.owner === '-' ? ref.repo : `${ref.owner}/${ref.repo}`;
  const out = args.values.get('out');
  let target: string;
  if (out === undefined) target = path.resolve(io.cwd, promptFileName(ref.repo));
  else {
    const p = path.resolve(io.cwd, out);
    const isDir = (await fs.stat(p).catch(() => undefined))?.isDirectory() || /[\\/]$/.test(out);
    target = isDir ? path.join(p, promptFileName(ref.repo)) : promptFileKind(p) ? p : asPromptYamlPath(p);
  }
  if (promptFileKind(target) === 'json') throw new UsageError(`${shown(io.cwd, target)}: pull writes a YAML prompt file (.prompt.yaml).`);
  const conn = await connect(args, io, output);
  const remote = await readRemoteVersion(conn.client, identifier, ref.commit);
  const own = targetOf(identifier, remote.handle).own;
  const file = fromManifest(remote.manifest, {
    identifier: own ? ref.repo : identifier,
    description: remote.repo?.description,
    readme: remote.repo?.readme,
    tags: remote.repo?.tags,
    isPublic: remote.repo?.is_public,
  });
  const existing = await readIfExists(target);
  const where = shown(io.cwd, target);
  const version = ref.commit === 'latest' ? `${identifier} (latest, ${remote.commitHash.slice(0, 8)})` : `${identifier}:${ref.commit}`;
  let text: string;
  if (existing !== undefined && existing.trim()) {
    const parsed = parsePromptFile(existing);
    if (parsed.file && canonicalJson(toManifest(parsed.file, remote.manifest)) === canonicalJson(remote.manifest) && !args.flags.has('force')) {
      output.line(`${where} already holds ${version}.`);
      return EXIT.ok;
    }
    if (!args.flags.has('force')) throw new UsageError(`${where} exists and differs from ${version}: not overwritten. Pass --force to replace it (its comments and key order are kept).`);
    text = parsed.file || !parsed.problems.some((p) => p.code === 'yaml') ? rewritePromptFile(existing, file) : writePromptFile(file, { header: true });
  } else text = writePromptFile(file, { header: true });
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.writeFile(target, text);
  output.line(`Pulled ${version} into ${where}.`);
  return EXIT.ok;
}

export async function diff(args: Parsed, io: Io, output: Output): Promise<number> {
  const given = args.positionals[0]!;
  const p = path.resolve(io.cwd, given);
  const kind = promptFileKind(p);
  if (!kind) throw new UsageError(`${given} is not a prompt file: prompt files end in .prompt.yaml, .prompt.yml or .prompt.json.`);
  const text = await readIfExists(p);
  if (text === undefined) throw new UsageError(`${given}: no such file.`);
  const parsed = parsePromptText(text, p);
  const where = shown(io.cwd, p);
  const identifier = promptNamedBy(parsed, text) ?? parsed.file?.identifier;
  if (!identifier) throw new UsageError(`${where} names no prompt: add \`prompt: <name>\` at the top.`);
  const ref = args.values.get('ref') ?? 'latest';
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(ref)) throw new UsageError(`--ref “${ref}” is not a tag or a commit.`);
  const conn = await connect(args, io, output);
  const remote = await readRemoteVersion(conn.client, identifier, ref);
  const meta = { identifier: identifier.replace(/^-\//, ''), description: remote.repo?.description, readme: remote.repo?.readme, tags: remote.repo?.tags, isPublic: remote.repo?.is_public };
  let remoteText: string;
  if (kind === 'json') remoteText = `${JSON.stringify(remote.manifest, null, 2)}\n`;
  else if (parsed.file) remoteText = remoteLikeLocal(text, parsed.file, remote.manifest, meta);
  else {
    output.error(`${where}: ${firstError(parsed) ?? 'the file does not parse'}; comparing with the remote version as pulled.`);
    remoteText = writePromptFile(fromManifest(remote.manifest, meta), { header: true });
  }
  const localText = kind === 'json' && parsed.file ? `${JSON.stringify(JSON.parse(text), null, 2)}\n` : text;
  if (remoteText === localText) return EXIT.ok;
  const label = ref === 'latest' ? `latest ${remote.commitHash.slice(0, 8)}` : ref === remote.commitHash || remote.commitHash.startsWith(ref) ? remote.commitHash.slice(0, 8) : `${ref} ${remote.commitHash.slice(0, 8)}`;
  const patch = createTwoFilesPatch(`${identifier} @ ${label}`, where, remoteText, localText, undefined, undefined, { context: 3 });
  // createTwoFilesPatch starts with an "Index"-less header; its "====" line is dropped for the familiar form.
  output.line(patch.replace(/^=+\n/m, '').trimEnd());
  return EXIT.changes;
}
