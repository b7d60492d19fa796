// A payload on the page: long strings kept short until asked for, values the host cut fetched whole on "Show
// all", JSON as a folded tree, and conversations, documents and text rendered as what they are. Everything is
// text (React escapes it); no server string becomes a link or markup.
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import type { RequestType } from '../../../../src/protocol/messages';
import type { ShowAll, Cut, Payload } from '../../../../src/protocol/trace';
import { useRequest } from '../app';
import { TextButton } from '../components';
import { classify, type Doc, type Message, type Part, type Path, type ToolCall } from './classify';
import './run.css';

export type PartName = 'inputs' | 'outputs' | 'metadata' | 'invocationParams';

interface PayloadContextValue {
  runId: string;
  part: PartName;
  cuts: Map<string, Cut>;
}

const PayloadContext = createContext<PayloadContextValue | undefined>(undefined);

/** The request that reads a value whole ("Show all"): the trace viewer's or the review page's (same shape). */
export type ShowAllRequest = RequestType<(typeof ShowAll)['params'], (typeof ShowAll)['result']>;

const ShowAllContext = createContext<ShowAllRequest | undefined>(undefined);

/** Gives the payloads below it the app's "Show all" request. */
export function ShowAllProvider({ request, children }: { request: ShowAllRequest; children: ReactNode }) {
  return <ShowAllContext.Provider value={request}>{children}</ShowAllContext.Provider>;
}

function useShowAllRequest(): ShowAllRequest {
  const request = useContext(ShowAllContext);
  if (!request) throw new Error('Render payloads inside a ShowAllProvider.');
  return request;
}

const pathKey = (path: Path) => JSON.stringify(path);

/** Strings longer than this (or with more lines) start collapsed. */
const LONG_CHARS = 2000;
const LONG_LINES = 30;
/** The most text one value puts on the page at a time. */
const CHUNK_CHARS = 100_000;
const ARRAY_PAGE = 100;

function useCut(path: Path): Cut | undefined {
  const ctx = useContext(PayloadContext);
  return ctx?.cuts.get(pathKey(path));
}

/** "Show all" of a value the host cut: its whole text, or a note that it opened in an editor. */
function useShowAll(path: Path) {
  const ctx = useContext(PayloadContext);
  const request = useRequest(useShowAllRequest());
  const [whole, setWhole] = useState<string>();
  const [opened, setOpened] = useState(false);
  const [error, setError] = useState<string>();
  async function showAll() {
    if (!ctx) return;
    setError(undefined);
    const result = await request.run({ runId: ctx.runId, part: ctx.part, path }, { timeoutMs: 120_000 });
    if (!result.ok) {
      if (result.error.code !== 'cancelled') setError(result.error.message);
      return;
    }
    if (result.value.text !== null) setWhole(result.value.text);
    if (result.value.opened) setOpened(true);
  }
  return { showAll, whole, opened, error, pending: request.pending };
}

function headOf(text: string): string {
  let cut = Math.min(text.length, LONG_CHARS);
  let lines = 0;
  for (let i = 0; i < cut; i++) {
    if (text.charCodeAt(i) === 10 && ++lines >= LONG_LINES) {
      cut = i;
      break;
    }
  }
  return text.slice(0, cut);
}

/** A string: short ones whole; long ones collapsed with "Show all"; at most 100 KB on the page per step. */
export function LongText({ text, path, className }: { text: string; path: Path; className?: string }) {
  const cut = useCut(path);
  const more = useShowAll(path);
  const full = more.whole ?? text;
  const [limit, setLimit] = useState(0); // 0: collapsed
  const head = useMemo(() => headOf(full), [full]);
  const long = head.length < full.length;
  const shownLimit = limit || (more.whole !== undefined ? CHUNK_CHARS : 0);
  const shown = shownLimit ? full.slice(0, shownLimit) : head;
  const restHere = full.length - shown.length;
  const missing = more.whole === undefined && cut?.kind === 'string' ? Math.max(0, cut.length - text.length) : 0;
  return (
    <div className={`tv-text ${className ?? ''}`}>
      <pre className="tv-pre">
        {shown}
        {(restHere > 0 || missing > 0) && '…'}
      </pre>
      {restHere > 0 && (
        <TextButton onClick={() => setLimit(Math.min(full.length, (shownLimit || 0) + CHUNK_CHARS))} data-testid="show-more-text">
          {shownLimit ? `Show ${Math.min(CHUNK_CHARS, restHere).toLocaleString('en-US')} more characters` : 'Show all'}
          {!shownLimit && long && ` (${full.length.toLocaleString('en-US')} characters)`}
        </TextButton>
      )}
      {missing > 0 && restHere <= 0 && <CutNote what={`${missing.toLocaleString('en-US')} characters more`} state={more} />}
      {missing > 0 && restHere > 0 && <CutNote what={`and ${missing.toLocaleString('en-US')} characters not loaded`} state={more} />}
      {more.opened && <span className="tv-note">Opened in an editor.</span>}
    </div>
  );
}

function CutNote({ what, state }: { what: string; state: ReturnType<typeof useShowAll> }) {
  return (
    <span className="tv-cut">
      <span className="tv-note">… {what} — </span>
      <TextButton onClick={() => void state.showAll()} disabled={state.pending} data-testid="show-all-cut">
        {state.pending ? 'Loading…' : 'Show all'}
      </TextButton>
      {state.error && <span className="tv-error-text"> {state.error}</span>}
    </span>
  );
}

/** A JSON value as a folded tree: the first level open, deeper levels open on click, long arrays a page at a time. */
export function JsonTree({ value, path = [], level = 0 }: { value: unknown; path?: Path; level?: number }) {
  if (typeof value === 'string') return <LongText text={value} path={path} className="tv-json-string" />;
  if (value === null || typeof value !== 'object') return <span className={`tv-json-${value === null ? 'null' : typeof value}`}>{JSON.stringify(value) ?? String(value)}</span>;
  return <JsonBranch value={value as object} path={path} level={level} />;
}

function JsonBranch({ value, path, level }: { value: object; path: Path; level: number }) {
  const [open, setOpen] = useState(level === 0);
  const [limit, setLimit] = useState(ARRAY_PAGE);
  const cut = useCut(path);
  const more = useShowAll(path);
  const isArray = Array.isArray(value);
  const entries: [string | number, unknown][] = isArray ? (value as unknown[]).map((v, i) => [i, v]) : Object.entries(value);
  const size = entries.length;
  const summary = isArray ? `[${size} item${size === 1 ? '' : 's'}]` : `{${size} key${size === 1 ? '' : 's'}}`;
  if (size === 0 && !cut) return <span className="tv-json-empty">{isArray ? '[]' : '{}'}</span>;
  return (
    <div className="tv-json">
      <button type="button" className="tv-json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="tv-twisty-glyph" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span className="tv-json-summary">{summary}</span>
      </button>
      {open && (
        <ul className="tv-json-children">
          {entries.slice(0, limit).map(([k, v]) => (
            <li key={k} className="tv-json-entry">
              <span className="tv-json-key">{isArray ? k : JSON.stringify(k)}:</span> <JsonTree value={v} path={[...path, k]} level={level + 1} />
            </li>
          ))}
          {size > limit && (
            <li>
              <TextButton onClick={() => setLimit(limit + ARRAY_PAGE)} data-testid="show-more-items">
                Show more ({(size - limit).toLocaleString('en-US')} more)
              </TextButton>
            </li>
          )}
          {cut && cut.kind !== 'string' && (
            <li>
              {more.whole !== undefined ? (
                <LongText text={more.whole} path={[...path, '\u0000whole']} />
              ) : (
                <CutNote what={`${Math.max(0, cut.length - size).toLocaleString('en-US')} ${cut.kind === 'array' ? 'items' : 'keys'} more`} state={more} />
              )}
              {more.opened && <span className="tv-note">Opened in an editor.</span>}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}

const ROLE_LABEL: Record<string, string> = { system: 'System', human: 'Human', ai: 'AI', tool: 'Tool', function: 'Function' };

export function roleLabel(m: Message): string {
  return ROLE_LABEL[m.role] ?? m.roleName;
}

function PartView({ part }: { part: Part }) {
  if (part.type === 'text') return <LongText text={part.text} path={part.path} />;
  if (part.type === 'image') {
    if (/^https?:\/\//i.test(part.url)) return <img className="tv-image" loading="lazy" src={part.url} alt="Image in the message" />;
    if (part.url.startsWith('data:')) {
      const kb = Math.max(1, Math.round((part.url.length * 3) / 4 / 1024));
      return <span className="tv-placeholder">[image, {kb.toLocaleString('en-US')} KB inline]</span>;
    }
    return <span className="tv-placeholder">[image]</span>;
  }
  return <JsonTree value={part.value} path={part.path} />;
}

function ToolCallView({ call }: { call: ToolCall }) {
  return (
    <div className="tv-tool-call" data-testid="tool-call">
      <div className="tv-tool-call-head">
        <span className="tv-tool-call-label">Tool call</span> <span className="tv-tool-name">{call.name}</span>
        {call.id && <span className="tv-muted tv-mono"> {call.id}</span>}
      </div>
      {call.rawArgs !== null ? <LongText text={call.rawArgs} path={call.path} /> : <pre className="tv-pre tv-args">{JSON.stringify(call.args, null, 2) ?? ''}</pre>}
    </div>
  );
}

export function MessageView({ message }: { message: Message }) {
  return (
    <div className={`tv-message tv-role-${message.role}`} data-testid="message" data-role={message.role}>
      <div className="tv-message-head">
        <span className="tv-role">{roleLabel(message)}</span>
        {message.name && <span className="tv-muted"> {message.name}</span>}
        {message.toolCallId && <span className="tv-muted tv-mono"> for {message.toolCallId}</span>}
      </div>
      {message.content.map((p, i) => (
        <PartView key={i} part={p} />
      ))}
      {message.toolCalls.map((c, i) => (
        <ToolCallView key={i} call={c} />
      ))}
    </div>
  );
}

function DocumentView({ doc, n }: { doc: Doc; n: number }) {
  return (
    <li className="tv-document" data-testid="document">
      <div className="tv-document-head">
        <span className="tv-muted">#{n}</span> <span className="tv-source">{doc.source ?? 'no source'}</span>
      </div>
      <LongText text={doc.content} path={doc.path} />
    </li>
  );
}

/** A payload as what it is, or as JSON. */
export function PayloadView({ payload, runId, part, asJson }: { payload: Payload; runId: string; part: PartName; asJson: boolean }) {
  const cuts = useMemo(() => new Map(payload.cuts.map((c) => [pathKey(c.path), c])), [payload.cuts]);
  const view = useMemo(() => classify(payload.value), [payload.value]);
  const ctx = useMemo(() => ({ runId, part, cuts }), [runId, part, cuts]);
  let body: ReactNode;
  if (asJson || view.kind === 'json') body = <JsonTree value={payload.value} />;
  else if (view.kind === 'messages') body = <Conversation messages={view.messages} />;
  else if (view.kind === 'documents')
    body = (
      <ol className="tv-documents">
        {view.documents.map((d, i) => (
          <DocumentView key={i} doc={d} n={i + 1} />
        ))}
      </ol>
    );
  else
    body = (
      <div className="tv-plain">
        {view.label && <div className="tv-muted">{view.label}</div>}
        <LongText text={view.text} path={view.path} />
      </div>
    );
  return <PayloadContext.Provider value={ctx}>{body}</PayloadContext.Provider>;
}

/** Renders children with a payload's cuts in reach (a thread turn's message). */
export function WithPayload({ payload, runId, part, children }: { payload: Payload; runId: string; part: PartName; children: ReactNode }) {
  const cuts = useMemo(() => new Map(payload.cuts.map((c) => [pathKey(c.path), c])), [payload.cuts]);
  const ctx = useMemo(() => ({ runId, part, cuts }), [runId, part, cuts]);
  return <PayloadContext.Provider value={ctx}>{children}</PayloadContext.Provider>;
}

export function Conversation({ messages }: { messages: Message[] }) {
  return (
    <div className="tv-conversation" data-testid="conversation">
      {messages.map((m, i) => (
        <MessageView key={i} message={m} />
      ))}
    </div>
  );
}

/** Whether the payload renders as something other than JSON (so the Rendered / JSON toggle means something). */
export function rendersAs(payload: Payload): string {
  return classify(payload.value).kind;
}
