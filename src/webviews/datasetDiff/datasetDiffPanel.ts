// The dataset version diff panel: one per dataset and pair of versions. The host asks the server for the diff
// (the ids of the examples added, removed and modified), then, for each page the webview asks for, fetches both
// versions of those examples (by ids, as of each version) and computes the field-level diff. A search reads
// the examples of the whole diff once, a chunk at a time, and keeps the ids that match. The JSON of an example
// at both versions opens in VS Code's diff editor; editing opens the example editor.
import * as vscode from 'vscode';
import type { Example } from '../../client';
import { exampleSplits, metadataWithoutSplit } from '../../client/exampleSplits';
import { Commands } from '../../constants';
import {
  DatasetDiffKey,
  DatasetDiffReady,
  DIFF_KINDS,
  DiffPage,
  OpenExample,
  OpenInLangSmith,
  type DatasetDiffState,
  type DiffKind,
  type OpenHow,
  type DiffRow,
  type FieldChange,
} from '../../protocol/datasetDiff';
import type { ParamsOf } from '../../protocol/messages';
import { CancelledError, RequestError } from '../../protocol/router';
import { documentUri } from '../../views/documents';
import { around } from './around';
import { summarize } from '../../text/format';
import { reported } from '../reported';
import type { PanelApp, PanelClients } from '../panels';
import { untilAborted } from '../../client/abort';

/** Examples asked for in one request (the API's page maximum). */
const CHUNK = 100;
/** Chunks fetched at once while a search reads the whole diff. */
const PARALLEL = 3;
/** Example pairs kept between requests; older ones are fetched again when they scroll back in. */
const PAIRS_KEPT = 5_000;
const MAX_CHANGES = 12;
const MAX_TEXT = 400;
/** How deep a modified example's objects are compared before a whole value counts as changed. */
const MAX_DEPTH = 4;

export const datasetDiffApp: PanelApp<DatasetDiffKey, typeof DatasetDiffReady.result.shape.state> = {
  ready: DatasetDiffReady,
  parseKey: (raw) => {
    const key = DatasetDiffKey.safeParse(raw);
    return key.success ? key.data : undefined;
  },
  keyId: (key) => JSON.stringify([key.datasetId, key.from.asOf, key.to.asOf]),
  title: (key) => diffTitle(key.datasetName, key),
  open({ host, key, services, setTitle }) {
    const session = new DiffSession(services.clients, key, host.signal);
    host.router.onRequest(DiffPage, (params, { signal }) => reported(() => session.page(params, signal)));
    host.router.onRequest(OpenExample, ({ exampleId, how }, { signal }) => reported(() => session.open(exampleId, how, signal)));
    host.router.onRequest(OpenInLangSmith, (_params, { signal }) =>
      reported(async () => {
        const url = await services.clients.call((c) => c.links.dataset({ datasetId: key.datasetId, signal }));
        await vscode.env.openExternal(vscode.Uri.parse(url));
        return {};
      }),
    );
    return {
      state: async (signal) =>
        reported(async () => {
          const state = await session.refresh(signal);
          setTitle(diffTitle(state.dataset.name, key));
          return state;
        }),
    };
  },
};

function diffTitle(datasetName: string, key: Pick<DatasetDiffKey, 'from' | 'to'>): string {
  return `${datasetName || vscode.l10n.t('Dataset')}: ${readableVersion(key.from.label)} → ${readableVersion(key.to.label)}`;
}

/** A version's label as people read it: a tag as it is, a timestamp as a local date and time (not ISO 8601). */
export function readableVersion(label: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(label)) return label;
  const t = Date.parse(label);
  return Number.isFinite(t) ? new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : label;
}

/** Resolves with `promise`, or rejects as soon as `signal` aborts (the work behind it goes on for others). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return untilAborted(promise, signal, () => new CancelledError());
}

interface DiffIds {
  byKind: Record<DiffKind, string[]>;
  kindOf: Map<string, DiffKind>;
}

/** An example at the two versions; null where it does not exist. */
export interface ExamplePair {
  before: Example | null;
  after: Example | null;
}

class DiffSession {
  private diff: Promise<DiffIds> | undefined;
  /** Most recently used last. */
  private readonly pairs = new Map<string, ExamplePair>();
  /** The ids that matched the last search, to answer its pages and to narrow a longer search from. */
  private lastSearch: { kinds: string; needle: string; ids: string[] } | undefined;

  constructor(
    private readonly clients: PanelClients,
    private readonly key: DatasetDiffKey,
    /** Aborts when the panel closes: the diff is shared by the requests, so no one request may cancel it. */
    private readonly lifetime: AbortSignal,
  ) {}

  /** The state for a ready request: the diff is asked for again, and what was fetched before is forgotten. */
  async refresh(signal: AbortSignal): Promise<DatasetDiffState> {
    this.diff = undefined;
    this.pairs.clear();
    this.lastSearch = undefined;
    const [dataset, ids] = await Promise.all([this.clients.call((c) => c.datasets.read({ datasetId: this.key.datasetId, signal })), abortable(this.ids(), signal)]);
    return {
      dataset: { id: dataset.id, name: dataset.name },
      from: this.key.from,
      to: this.key.to,
      counts: { added: ids.byKind.added.length, removed: ids.byKind.removed.length, modified: ids.byKind.modified.length },
    };
  }

  private ids(): Promise<DiffIds> {
    if (!this.diff) {
      const diff = this.clients
        .call((c) => c.datasets.diff({ datasetId: this.key.datasetId, fromVersion: this.key.from.asOf, toVersion: this.key.to.asOf, signal: this.lifetime }))
        .then((d) => {
          const byKind: Record<DiffKind, string[]> = { added: d.examples_added, removed: d.examples_removed, modified: d.examples_modified };
          const kindOf = new Map<string, DiffKind>();
          for (const kind of DIFF_KINDS) for (const id of byKind[kind]) kindOf.set(id, kind);
          return { byKind, kindOf };
        });
      // A failed diff is asked for again by the next request rather than remembered.
      diff.catch(() => {
        if (this.diff === diff) this.diff = undefined;
      });
      this.diff = diff;
    }
    return this.diff;
  }

  async page(params: ParamsOf<typeof DiffPage>, signal: AbortSignal): Promise<{ offset: number; total: number; rows: DiffRow[] }> {
    const ids = await abortable(this.ids(), signal);
    const kinds = DIFF_KINDS.filter((k) => params.kinds.includes(k));
    const needle = params.search.trim().toLowerCase();
    const all = kinds.flatMap((k) => ids.byKind[k]);
    const list = needle ? await this.matching(ids, kinds.join(','), all, needle, signal) : all;
    const slice = list.slice(params.offset, params.offset + params.limit);
    const pairs = await this.load(slice, ids, signal);
    return { offset: params.offset, total: list.length, rows: slice.map((id) => diffRow(id, ids.kindOf.get(id)!, pairs.get(id)!)) };
  }

  /** The ids among `all` whose example matches `needle`, in order; a longer search narrows the last one. */
  private async matching(ids: DiffIds, kinds: string, all: string[], needle: string, signal: AbortSignal): Promise<string[]> {
    const last = this.lastSearch?.kinds === kinds ? this.lastSearch : undefined;
    if (last?.needle === needle) return last.ids;
    const base = last && needle.includes(last.needle) ? last.ids : all;
    const found: string[][] = [];
    let next = 0;
    const worker = async () => {
      while (next * CHUNK < base.length) {
        const i = next++;
        const chunk = base.slice(i * CHUNK, (i + 1) * CHUNK);
        const pairs = await this.load(chunk, ids, signal);
        found[i] = chunk.filter((id) => pairMatches(id, pairs.get(id)!, needle));
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    const matched = found.flat();
    this.lastSearch = { kinds, needle, ids: matched };
    return matched;
  }

  /** Both versions of each example of `list`, from the cache or fetched (a chunk at a time, in parallel). */
  private async load(list: string[], ids: DiffIds, signal: AbortSignal): Promise<Map<string, ExamplePair>> {
    const out = new Map<string, ExamplePair>();
    const missing: string[] = [];
    for (const id of list) {
      const pair = this.pairs.get(id);
      if (!pair) {
        missing.push(id);
        continue;
      }
      this.pairs.delete(id);
      this.pairs.set(id, pair);
      out.set(id, pair);
    }
    const chunks: string[][] = [];
    for (let i = 0; i < missing.length; i += CHUNK) chunks.push(missing.slice(i, i + CHUNK));
    await Promise.all(
      chunks.map(async (chunk) => {
        const [before, after] = await Promise.all([
          this.fetch(this.key.from.asOf, chunk.filter((id) => ids.kindOf.get(id) !== 'added'), signal),
          this.fetch(this.key.to.asOf, chunk.filter((id) => ids.kindOf.get(id) !== 'removed'), signal),
        ]);
        for (const id of chunk) {
          const pair = { before: before.get(id) ?? null, after: after.get(id) ?? null };
          out.set(id, pair);
          this.pairs.set(id, pair);
        }
      }),
    );
    while (this.pairs.size > PAIRS_KEPT) this.pairs.delete(this.pairs.keys().next().value!);
    return out;
  }

  private async fetch(asOf: string, exampleIds: string[], signal: AbortSignal): Promise<Map<string, Example>> {
    const found = new Map<string, Example>();
    if (!exampleIds.length) return found;
    await this.clients.call(async (c) => {
      const examples = c.examples.list({ datasetId: this.key.datasetId, asOf, ids: exampleIds, pageSize: CHUNK, limit: exampleIds.length, prefetch: 0, signal });
      for await (const example of examples) found.set(example.id, example);
    });
    return found;
  }

  async open(exampleId: string, how: OpenHow, signal: AbortSignal): Promise<Record<string, never>> {
    const ids = await abortable(this.ids(), signal);
    const kind = ids.kindOf.get(exampleId);
    if (!kind) throw new RequestError('invalidParams', vscode.l10n.t('That example is not part of this diff.'));
    const { from, to, datasetId } = this.key;
    if (how === 'edit') {
      if (kind === 'removed') throw new RequestError('invalidParams', vscode.l10n.t('That example was removed in {0}: there is nothing to edit.', to.label));
      await vscode.commands.executeCommand(Commands.editExample, { datasetId, exampleId });
      return {};
    }
    const short = exampleId.slice(0, 8);
    const side = (version: typeof from) => documentUri('exampleVersion', JSON.stringify({ exampleId, asOf: version.asOf }), `example-${short}@${version.label}`);
    await vscode.commands.executeCommand('vscode.diff', side(from), side(to), vscode.l10n.t('Example {0}: {1} ↔ {2}', short, readableVersion(from.label), readableVersion(to.label)), { preview: true });
    return {};
  }
}

// The field-level diff. The split is shown on its own, not in metadata (see exampleSplits).

type Json = Record<string, unknown>;
const FIELDS = ['inputs', 'outputs', 'metadata'] as const;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function fieldOf(example: Example | null, field: (typeof FIELDS)[number]): Json | undefined {
  const value = example?.[field];
  if (!isObject(value)) return undefined;
  return field === 'metadata' ? metadataWithoutSplit(value) : value;
}

function splitOf(example: Example | null): string | undefined {
  const list = example ? exampleSplits(example) : [];
  return list.length ? [...list].sort().join(', ') : undefined;
}

function attachmentsOf(example: Example | null): string | undefined {
  const names = example ? Object.keys(example.attachments ?? {}).sort() : [];
  return names.length ? names.join(', ') : undefined;
}

export function diffRow(id: string, kind: DiffKind, pair: ExamplePair): DiffRow {
  const { before, after } = pair;
  const changes: FieldChange[] = [];
  // A whole example added or removed lists its top-level keys; a modified one, what changed, however deep.
  const depth = kind === 'modified' ? MAX_DEPTH : 1;
  for (const field of FIELDS) diffValue(field, fieldOf(before, field), fieldOf(after, field), changes, 0, depth);
  for (const [path, a, b] of [['split', splitOf(before), splitOf(after)], ['attachments', attachmentsOf(before), attachmentsOf(after)]] as const) {
    if (a !== b) changes.push(change(path, a, b));
  }
  return {
    id,
    kind,
    summary: summarize((after ?? before)?.inputs, 160),
    changes: changes.slice(0, MAX_CHANGES),
    moreChanges: Math.max(0, changes.length - MAX_CHANGES),
  };
}

function diffValue(path: string, a: unknown, b: unknown, out: FieldChange[], depth: number, maxDepth: number): void {
  if (sameJson(a, b)) return;
  if (depth < maxDepth && (a === undefined || isObject(a)) && (b === undefined || isObject(b))) {
    const left = (a ?? {}) as Json;
    const right = (b ?? {}) as Json;
    const keys = [...Object.keys(right), ...Object.keys(left).filter((k) => !(k in right))];
    for (const k of keys) diffValue(`${path}${keyPath(k)}`, left[k], right[k], out, depth + 1, maxDepth);
    return;
  }
  out.push(change(path, a, b));
}

function change(path: string, a: unknown, b: unknown): FieldChange {
  const op = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
  const out: FieldChange = { path, op, before: valueText(a), after: valueText(b) };
  if (op === 'changed') out.around = around(fullText(a), fullText(b));
  return out;
}

const fullText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));


function keyPath(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function valueText(v: unknown): string | null {
  if (v === undefined) return null;
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}

/** Whether the search text is in the example's id or in any key or value of either version. */
function pairMatches(id: string, pair: ExamplePair, needle: string): boolean {
  if (id.toLowerCase().includes(needle)) return true;
  const found = (v: unknown): boolean => {
    if (typeof v === 'string') return v.toLowerCase().includes(needle);
    if (typeof v === 'number' || typeof v === 'boolean') return String(v).includes(needle);
    if (Array.isArray(v)) return v.some(found);
    if (isObject(v)) return Object.entries(v).some(([k, x]) => k.toLowerCase().includes(needle) || found(x));
    return false;
  };
  return [pair.before, pair.after].some((e) => e !== null && (found(e.inputs) || found(e.outputs) || found(e.metadata)));
}
