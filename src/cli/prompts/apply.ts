// prompts apply: does what the plan shows, with the editor's push (pushPromptFile): creates or updates the
// prompt, commits onto the latest commit the plan saw, puts the tags on the commit (moving them, never a 409).
// The push starts from what the plan read (the prompt, its latest manifest, its tags): it reads only the latest
// commit again, to refuse a file someone committed to since the plan.
import { execFile } from 'node:child_process';
import { inPool, pushPromptFile, type PushOutcome } from '../../promptFile';
import { UsageError, type CommandSpec, type Parsed } from '../args';
import { CONNECTION_HELP, CONNECTION_OPTIONS, connect, describeError, type Connection } from '../connection';
import { EXIT, type Io, type Output } from '../io';
import { TAG_OPTION, checkTags, loadFiles, makePlans, printPlanText, summarize, type Planned } from './plan';

export const applySpec: CommandSpec = {
  name: 'prompts apply',
  usage: 'prompts apply [paths…] [--tag NAME…] [--message TEXT] [--yes]',
  summary:
    'Does what `prompts plan` shows: creates missing prompts, updates their attributes, commits each changed file onto the latest commit and puts the ' +
    'tags on each prompt’s commit (an existing tag moves). Prints the plan first and asks on a terminal; elsewhere (CI) it needs --yes. ' +
    'A second apply of the same files does nothing. Prints the link of each commit it made or tagged.',
  options: {
    ...TAG_OPTION,
    message: { kind: 'value', short: 'm', arg: 'TEXT', help: 'The commits’ description. Default: the subject of the current git commit (`git log -1`), none outside git.' },
    yes: { kind: 'flag', short: 'y', help: 'Apply without asking (required when not on a terminal).' },
    ...CONNECTION_OPTIONS,
  },
  details: [
    'Nothing is applied when any file has an error (it does not parse, two files name one prompt, a prompt of another workspace): fix it and run again.',
    'Exit status: 0 when everything was applied (or nothing needed to be), 1 on an error.',
    CONNECTION_HELP,
  ],
};

/** The subject of the current git commit in `cwd`, or undefined without git or a repository. */
export function gitSubject(cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['log', '-1', '--format=%s'], { cwd, timeout: 5000, windowsHide: true }, (err, stdout) => resolve(err ? undefined : stdout.trim() || undefined));
  });
}

async function linkOf(conn: Connection, p: Planned, outcome: PushOutcome): Promise<string | undefined> {
  if (outcome.status === 'pushed') return outcome.url;
  if (outcome.status === 'nothingToCommit' && outcome.commitHash) return conn.client.prompts.url(`${p.plan.target.identifier}:${outcome.commitHash}`);
  return undefined;
}

function outcomeText(p: Planned, outcome: PushOutcome): string {
  if (outcome.status === 'stale') return `changed on LangSmith since the plan (latest commit now ${outcome.latest?.slice(0, 8) ?? 'none'}): nothing applied; run apply again.`;
  const did: string[] = [];
  if (outcome.status === 'pushed') {
    if (outcome.created) did.push('created');
    did.push(`committed ${outcome.commitHash.slice(0, 8)}`);
  }
  if (outcome.updated.length) did.push(`updated ${outcome.updated.join(', ')}`);
  const moved = p.plan.tags.filter((t) => t.action !== 'keep').map((t) => t.name);
  if (moved.length) did.push(`tagged ${moved.join(', ')}`);
  return did.join(', ') || 'nothing to do';
}

export async function apply(args: Parsed, io: Io, output: Output): Promise<number> {
  const tags = checkTags(args);
  const yes = args.flags.has('yes');
  if (!yes && (!io.interactive || args.flags.has('api-key-stdin'))) {
    throw new UsageError('Not asking: standard input is not a terminal, so nothing was applied. Run `prompts plan` to see the changes, then apply with --yes (as in CI).');
  }
  const loaded = await loadFiles(io, args.positionals);
  if (!loaded.ready.length) {
    printPlanText(output, [], loaded);
    return loaded.errors.length ? EXIT.error : EXIT.ok;
  }
  const conn = await connect(args, io, output);
  const planned = await makePlans(conn, loaded, tags);
  printPlanText(output, planned, loaded);
  const s = summarize(planned, loaded);
  if (s.errors) {
    output.error('Nothing applied: fix the errors above first.');
    return EXIT.error;
  }
  const todo = planned.filter((p) => p.plan.changed);
  if (!todo.length) {
    output.line('Nothing to apply.');
    return EXIT.ok;
  }
  if (!yes) {
    const answer = (await io.ask(`Apply ${todo.length} change${todo.length === 1 ? '' : 's'} to LangSmith at ${conn.endpoint}? [y/N] `)).trim();
    if (!/^y(es)?$/i.test(answer)) {
      output.line('Nothing applied.');
      return EXIT.ok;
    }
  }
  const message = args.values.get('message') ?? (await gitSubject(io.cwd));
  let failed = 0;
  const results = await inPool(todo, 4, async (p) => {
    try {
      const outcome = await pushPromptFile(conn.client, p.prompt, { expectedParent: p.plan.latest, description: message, commitTags: tags, known: p.plan.known });
      if (outcome.status === 'stale') failed++;
      return { p, outcome, link: await linkOf(conn, p, outcome) };
    } catch (e) {
      failed++;
      return { p, error: describeError(e, conn.endpoint, conn.profile) };
    }
  });
  for (const r of results) {
    if ('error' in r) output.error(`${r.p.file.shown} → ${r.p.plan.identifier}: error: ${r.error}`);
    else {
      const line = `${r.p.file.shown} → ${r.p.plan.identifier}: ${outcomeText(r.p, r.outcome)}`;
      if (r.outcome.status === 'stale') output.error(line);
      else output.line(`${line}${r.link ? `\n  ${r.link}` : ''}`);
    }
  }
  output.line(`Applied ${todo.length - failed} of ${todo.length}.`);
  return failed ? EXIT.error : EXIT.ok;
}
