import { useState } from 'react';
import {
  OpenCommit,
  PromptCommitChanged,
  PushPrompt,
  RevealFile,
  ShowDiff,
  type ChangeInfo,
  type PromptCommitState,
  type PushResult,
} from '../../../../src/protocol/promptCommit';
import { useAppState, useDraft, useNotification, useRequest } from '../../common/app';
import { Badge, Banner, Button, ProgressRing, TextButton, ToggleButton } from '../../common/components';

/** What the user writes for the commit: kept in the webview's state, so a hidden tab or a reload keeps it. */
interface CommitDraft {
  description: string;
  /** Extra tags, comma separated as typed. */
  tags: string;
  production: boolean;
  staging: boolean;
  /** For a prompt that does not exist yet. */
  newDescription: string | null;
  /** null: as the file says (`visibility:`), private when it says nothing. */
  isPublic: boolean | null;
}

const EMPTY: CommitDraft = { description: '', tags: '', production: false, staging: false, newDescription: null, isPublic: null };
const short = (hash: string) => hash.slice(0, 8);
const TAG = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function tagProblem(name: string): string | undefined {
  if (name.length > 100) return `“${name.slice(0, 20)}…” is longer than 100 characters.`;
  if (!TAG.test(name)) return `“${name}” is not a tag name: use letters, digits, -, _ and .`;
  if (name === 'latest' || /^[0-9a-f]{8,}$/i.test(name)) return `“${name}” would be read as a commit reference.`;
  return undefined;
}

function when(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString();
}

function ChangeView({ change }: { change: ChangeInfo }) {
  return (
    <li className="pc-change" data-testid="change">
      <div className="pc-change-title">
        <strong>{change.section}</strong>
        <span className={`lsw-kind-${change.kind === 'changed' ? 'modified' : change.kind}`}>{change.kind}</span>
        {change.attribute && <span className="lsw-muted">prompt attribute, updated on push (not part of the commit)</span>}
      </div>
      <pre className="pc-lines">
        {change.lines.map((l, i) => (
          <span key={i} className={`pc-line pc-line-${l.type}`}>
            {l.type === 'add' ? '+ ' : l.type === 'del' ? '− ' : '  '}
            {l.text || ' '}
          </span>
        ))}
      </pre>
    </li>
  );
}

export function App() {
  const [state, setState] = useAppState<PromptCommitState>();
  const [draft, setDraft, clearDraft] = useDraft<CommitDraft>('commit', EMPTY);
  /** The latest commit the user is looking at: pushes go on it and nowhere else. */
  const [result, setResult] = useState<{ tone: 'info' | 'warning'; text: string; hash?: string }>();
  const [error, setError] = useState<string>();
  const push = useRequest(PushPrompt);
  const diff = useRequest(ShowDiff);
  const openCommit = useRequest(OpenCommit);
  const reveal = useRequest(RevealFile);
  const { local, remote, changes } = state;

  useNotification(PromptCommitChanged, (next) => {
    setState(() => next);
    setResult(undefined);
  });

  const update = (patch: Partial<CommitDraft>) => {
    setResult(undefined);
    setError(undefined);
    setDraft({ ...draft, ...patch });
  };

  const extraTags = draft.tags.split(',').map((t) => t.trim()).filter(Boolean);
  const tags = [...new Set([...(draft.production ? ['production'] : []), ...(draft.staging ? ['staging'] : []), ...extraTags])];
  const tagErrors = extraTags.map(tagProblem).filter((x): x is string => !!x);
  const errors = local.problems.filter((p) => p.severity === 'error');
  const exists = remote?.exists ?? false;
  const isPublic = draft.isPublic ?? local.visibility === 'public';
  const commitChanges = changes.filter((c) => !c.attribute);
  /** The file reads as the latest commit and no tag is chosen: a push would do nothing. */
  const nothingToPush = exists && !!remote?.latest && !remote.refusal && changes.length === 0 && tags.length === 0;
  const why = !local.identifier
    ? 'The file names no prompt: add “prompt: <name>” at its top.'
    : errors.length
      ? `Fix the ${errors.length === 1 ? 'problem' : `${errors.length} problems`} in the file first.`
      : remote?.refusal
        ? remote.refusal
        : !remote
          ? 'The prompt on LangSmith could not be read.'
          : (tagErrors[0] ?? (nothingToPush ? 'Nothing to push: edit the file, or choose a tag to move to the latest commit.' : undefined));
  const canPush = !why && !push.pending;

  async function doPush() {
    if (!canPush) return;
    setError(undefined);
    setResult(undefined);
    const r = await push.run(
      {
        parent: remote?.latest?.hash ?? null,
        description: draft.description.trim(),
        tags,
        create: exists ? null : { description: (draft.newDescription ?? local.description ?? '').trim(), isPublic },
      },
      { timeoutMs: 120_000 },
    );
    if (!r.ok) {
      if (r.error.code !== 'cancelled') setError(`Not pushed: ${r.error.message}`);
      return;
    }
    const v: PushResult = r.value;
    setState(() => v.state);
    if (v.status === 'stale') {
      setResult({ tone: 'warning', text: 'Someone committed to this prompt since this panel showed it: nothing was pushed. Below is what a push changes now; check it and push again.' });
      return;
    }
    const tagged = v.tags.length ? ` Tagged ${v.tags.join(', ')}.` : '';
    const updated = v.updated.length ? ` Updated the prompt’s ${v.updated.join(', ')}.` : '';
    if (v.status === 'nothingToCommit') {
      setResult({ tone: 'info', text: `Nothing to commit: the file is the same as the latest commit.${updated}${tagged}`, hash: v.hash ?? undefined });
    } else {
      setResult({ tone: 'info', text: `${v.created ? 'Created the prompt and pushed' : 'Pushed'} commit ${short(v.hash)}.${updated}${tagged}`, hash: v.hash });
    }
    clearDraft();
    setDraft({ ...EMPTY, isPublic: draft.isPublic });
  }

  const run = async (p: Promise<{ ok: boolean; error?: { code: string; message: string } }>) => {
    const r = await p;
    if (!r.ok && r.error && r.error.code !== 'cancelled') setError(r.error.message);
  };

  return (
    <main className="lsw-page" data-testid="prompt-commit">
      <header className="pc-header">
        <h2>
          Push <span className="lsw-mono">{local.fileName}</span>
          {local.dirty && <span className="lsw-muted"> (unsaved changes included)</span>}
        </h2>
        <p className="lsw-muted">
          {remote ? (
            <>
              to <strong className="lsw-mono" data-testid="repo-name">{remote.displayName}</strong>{' '}
              {remote.exists ? <Badge>{remote.isPublic ? 'public' : 'private'}</Badge> : <Badge tone="warning">new prompt</Badge>}
            </>
          ) : local.identifier ? (
            <>to <span className="lsw-mono">{local.identifier}</span></>
          ) : (
            'to a prompt the file does not name yet'
          )}
        </p>
      </header>

      {state.remoteError && <Banner tone="warning">Could not read the prompt on LangSmith: {state.remoteError}</Banner>}
      {remote?.refusal && <Banner tone="error" data-testid="refusal">{remote.refusal}</Banner>}
      {error && <Banner tone="error" data-testid="error">{error}</Banner>}
      {result && (
        <Banner tone={result.tone} data-testid="result">
          {result.text}{' '}
          {result.hash && (
            <TextButton onClick={() => void run(openCommit.run({ hash: result.hash! }))} data-testid="open-result">
              Open commit
            </TextButton>
          )}
        </Banner>
      )}

      {errors.length > 0 && (
        <section className="pc-section" aria-labelledby="problems-label" data-testid="problems">
          <h3 id="problems-label">Problems</h3>
          <ul className="pc-problems">
            {local.problems.map((p, i) => (
              <li key={i} className={`pc-severity-${p.severity}`}>
                <TextButton onClick={() => void run(reveal.run({ line: p.line, column: p.column }))}>
                  Line {p.line}:{p.column}
                </TextButton>{' '}
                {p.message}
              </li>
            ))}
          </ul>
        </section>
      )}

      {remote && (
        <section className="pc-section" aria-labelledby="latest-label">
          <h3 id="latest-label">Latest commit</h3>
          {remote.latest ? (
            <p data-testid="latest">
              <TextButton className="lsw-mono" onClick={() => void run(openCommit.run({ hash: remote.latest!.hash }))}>
                {short(remote.latest.hash)}
              </TextButton>{' '}
              <span className="lsw-muted">{when(remote.latest.createdAt)}</span>{' '}
              {remote.latest.tags.map((t) => (
                <Badge key={t}>{t}</Badge>
              ))}
            </p>
          ) : (
            <p className="lsw-muted" data-testid="latest">{remote.exists ? 'No commits yet: this push is the first.' : 'The prompt does not exist yet: the push creates it.'}</p>
          )}
        </section>
      )}

      <section className="pc-section" aria-labelledby="vars-label">
        <h3 id="vars-label">Input variables</h3>
        <div className="lsw-chips" data-testid="variables">
          {local.variables.length ? local.variables.map((v) => <Badge key={v}>{v}</Badge>) : <span className="lsw-muted">none</span>}
          {local.templateFormat && <span className="lsw-muted">· {local.templateFormat} templates</span>}
        </div>
      </section>

      {!remote?.refusal && <section className="pc-section" aria-labelledby="changes-label">
        <h3 id="changes-label">
          What the push changes{' '}
          {remote?.latest && (
            <TextButton onClick={() => void run(diff.run({}))} data-testid="show-diff">
              Open in the diff editor
            </TextButton>
          )}
        </h3>
        {!errors.length && remote && !remote.refusal && (changes.length ? (
          <ul className="pc-changes" data-testid="changes">
            {changes.map((c, i) => (
              <ChangeView key={`${c.section}-${i}`} change={c} />
            ))}
          </ul>
        ) : (
          <p className="lsw-muted" data-testid="no-changes">Nothing to commit: the file is the same as the latest commit.</p>
        ))}
        {remote?.exists && remote.latest && !commitChanges.length && changes.length > 0 && <p className="lsw-muted">Only the prompt’s attributes change; no new commit is made.</p>}
      </section>}

      {remote && !remote.exists && !remote.refusal && (
        <section className="pc-section" aria-labelledby="new-label" data-testid="new-prompt">
          <h3 id="new-label">New prompt</h3>
          <label className="lsw-field-label" htmlFor="new-description">Description</label>
          <textarea
            id="new-description"
            className="pc-textarea"
            rows={2}
            maxLength={10000}
            value={draft.newDescription ?? local.description ?? ''}
            onChange={(e) => update({ newDescription: e.target.value })}
          />
          <div role="radiogroup" aria-label="Visibility" className="pc-radios">
            <label className="pc-radio">
              <input type="radio" name="visibility" checked={!isPublic} onChange={() => update({ isPublic: false })} /> Private
            </label>
            <label className="pc-radio">
              <input type="radio" name="visibility" checked={isPublic} onChange={() => update({ isPublic: true })} /> Public (anyone can pull it from the hub)
            </label>
          </div>
        </section>
      )}

      <section className="pc-section" aria-labelledby="commit-label">
        <h3 id="commit-label">Commit</h3>
        <label className="lsw-field-label" htmlFor="commit-description">Description <span className="lsw-muted">(optional)</span></label>
        <textarea
          id="commit-description"
          className="pc-textarea"
          rows={2}
          maxLength={10000}
          placeholder="What changed and why"
          value={draft.description}
          onChange={(e) => update({ description: e.target.value })}
          data-testid="commit-description"
        />
        <div className="lsw-row" role="group" aria-label="Environments">
          <ToggleButton pressed={draft.production} onToggle={(v) => update({ production: v })} data-testid="env-production" title={remote?.environments.production ? `now at ${short(remote.environments.production)}` : 'not set yet'}>
            production{remote?.environments.production ? ` (now ${short(remote.environments.production)})` : ''}
          </ToggleButton>
          <ToggleButton pressed={draft.staging} onToggle={(v) => update({ staging: v })} data-testid="env-staging" title={remote?.environments.staging ? `now at ${short(remote.environments.staging)}` : 'not set yet'}>
            staging{remote?.environments.staging ? ` (now ${short(remote.environments.staging)})` : ''}
          </ToggleButton>
        </div>
        <label className="lsw-field-label" htmlFor="commit-tags">Other tags <span className="lsw-muted">(comma separated; a tag that exists moves to this commit)</span></label>
        <input id="commit-tags" className="lsw-input pc-wide" value={draft.tags} maxLength={1000} onChange={(e) => update({ tags: e.target.value })} data-testid="commit-tags" />
        {tagErrors.map((t) => (
          <p key={t} className="lsw-error-text">{t}</p>
        ))}
        <div className="pc-push-row">
          <Button disabled={!canPush} onClick={() => void doPush()} data-testid="push">
            {exists ? 'Push' : 'Create and Push'}
          </Button>
          {push.pending && <ProgressRing />}
          {/* A tag's problem is shown under its field already. */}
          {why && !tagErrors.includes(why) && <span className="lsw-muted" data-testid="why-disabled">{why}</span>}
        </div>
      </section>
    </main>
  );
}
