// The annotation review panel: one per queue. The host reads the queue with its rubric (each key's feedback
// config), the items by section, and each item's run as the trace viewer reads it (a TraceSession per item);
// it writes the review (one feedback per rubric key, the queue as source), my status on the item, and keeps
// drafts of unfinished reviews in the workspace state. While an item is shown, the next one needing my review
// is read ahead, so Done answers with it at once.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { NotSignedInError } from '../../auth/clientService';
import type { AnnotationQueue, FeedbackConfigEntry, QueueItem, QueueItemSection, Run } from '../../client';
import { LangSmithNotFoundError } from '../../client/errors';
import { prompter } from '../../common/prompter';
import { Commands } from '../../constants';
import {
  Act,
  AddToDataset,
  Done,
  ListItems,
  Neighbour,
  OpenItem,
  QueueChanged,
  ReadRun,
  Reload,
  Remove,
  Requeue,
  ReviewKey,
  ReviewReady,
  SaveDraft,
  ShowAll,
  type Counts,
  type Draft,
  type FeedbackConfig,
  type ItemSummary,
  type ItemView,
  type Moved,
  type QueueInfo,
  type Review,
  type ReviewState,
  type RubricField,
} from '../../protocol/review';
import { RequestError } from '../../protocol/router';
import type { FeedbackItem } from '../../protocol/trace';
import { askedText } from '../../text/format';
import type { PanelApp, PanelClients, PanelServices } from '../panels';
import { problemOf, reported } from '../reported';
import { epochMs } from '../run/rows';
import { feedbackItem, TraceSession } from '../run/traceSession';

/** Drafts kept per queue (the most recently changed). */
const DRAFTS_KEPT = 200;
/** Item views (and their trace readers) kept for going back and forth. */
const VIEWS_KEPT = 6;
/** How long where an item was just listed stands for its placement. */
const PLACEMENT_FRESH_MS = 2000;

export const reviewApp: PanelApp<ReviewKey, typeof ReviewReady.result.shape.state> = {
  ready: ReviewReady,
  parseKey: (raw) => {
    const key = ReviewKey.safeParse(raw);
    return key.success ? key.data : undefined;
  },
  keyId: (key) => `review:${key.queueId}`,
  title: () => vscode.l10n.t('Review'),
  open({ host, key, services, setTitle }) {
    const session = new ReviewSession(services, key);
    const state = async (signal: AbortSignal) => {
      const t0 = Date.now();
      const s = await session.state(signal);
      services.log.info(`Review: the queue and its first item read in ${Date.now() - t0} ms`);
      if (s.kind === 'review') setTitle(vscode.l10n.t('Review: {0}', s.queue.name));
      return s;
    };
    host.router.onRequest(Reload, (_p, { signal }) => state(signal));
    host.router.onRequest(ListItems, ({ section, cursor }, { signal }) => reported(() => session.listItems(section, cursor, signal)));
    host.router.onRequest(OpenItem, ({ itemId }, { signal }) => reported(() => session.open(itemId, signal)));
    host.router.onRequest(Neighbour, ({ itemId, direction }, { signal }) => reported(async () => ({ item: await session.neighbour(itemId, direction, signal) })));
    host.router.onRequest(ReadRun, ({ runId }, { signal }) => reported(() => session.traceOf(runId).readRun(runId, signal)));
    host.router.onRequest(ShowAll, (p, { signal }) => reported(() => session.traceOf(p.runId).showAll(p.runId, p.part, p.path, signal)));
    host.router.onRequest(SaveDraft, ({ itemId, draft }) => reported(async () => (await session.saveDraft(itemId, draft), {})));
    host.router.onRequest(Done, ({ itemId, review }, { signal }) => reported(() => session.done(itemId, review, signal)));
    host.router.onRequest(Requeue, ({ itemId }, { signal }) => reported(() => session.requeue(itemId, signal)));
    host.router.onRequest(Remove, ({ itemId }, { signal }) => reported(() => session.remove(itemId, signal)));
    host.router.onRequest(AddToDataset, (p, { signal }) => reported(() => session.addToDataset(p.itemId, p.outputs, p.choose, signal)));
    host.router.onRequest(Act, ({ action, runId }, { signal }) => reported(() => session.act(action, runId, signal)));
    return {
      state,
      changed(what) {
        // Its settings were saved: the rubric and the counts again, the form kept (its own item changes it knows).
        if (what.kind !== 'queue' || what.queueId !== key.queueId || what.items) return;
        void session
          .refreshQueue()
          .then((q) => host.notify(QueueChanged, q))
          .catch((err: unknown) => services.log.warn(`Review: reading the changed queue failed: ${String(err)}`));
      },
    };
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Shapes

/** A feedback config as the form uses it; a key without one is free text. */
export function configOf(entry: FeedbackConfigEntry | undefined): { config: FeedbackConfig; lowerIsBetter: boolean } {
  const c = entry?.feedback_config;
  const lowerIsBetter = entry?.is_lower_score_better === true;
  if (c?.type === 'continuous') return { config: { type: 'continuous', min: c.min ?? null, max: c.max ?? null }, lowerIsBetter };
  if (c?.type === 'categorical') {
    return { config: { type: 'categorical', categories: (c.categories ?? []).slice(0, 100).map((k) => ({ value: k.value, label: (k.label ?? String(k.value)).slice(0, 2000) })) }, lowerIsBetter };
  }
  return { config: { type: 'freeform' }, lowerIsBetter };
}

const descriptions = (r: Record<string, string> | null | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, String(v).slice(0, 2000)]));

export function queueInfo(q: AnnotationQueue, configs: Map<string, FeedbackConfigEntry>, dataset: { id: string; name: string } | null): QueueInfo {
  const rubric: RubricField[] = (q.rubric_items ?? []).slice(0, 100).map((item) => ({
    key: item.feedback_key.slice(0, 200),
    description: item.description ?? null,
    required: item.is_required === true,
    ...configOf(configs.get(item.feedback_key)),
    scoreDescriptions: descriptions(item.score_descriptions),
    valueDescriptions: descriptions(item.value_descriptions),
  }));
  return {
    id: q.id,
    name: q.name.slice(0, 2000),
    description: q.description ?? null,
    instructions: q.rubric_instructions ?? null,
    rubric,
    defaultDataset: dataset,
    reviewersPerItem: q.num_reviewers_per_item ?? null,
    reservations: q.enable_reservations !== false,
    reservationMinutes: q.reservation_minutes ?? null,
  };
}

function summaryOf(item: QueueItem, section: QueueItemSection, run: Pick<Run, 'name' | 'inputs'> | undefined, mine: 'viewed' | 'completed' | null): ItemSummary {
  const thread = item.item_type === 'THREAD' || (!item.run_id && !!item.thread_id);
  return {
    id: item.id,
    kind: thread ? 'thread' : 'run',
    runId: item.run_id ?? null,
    threadId: item.thread_id ? item.thread_id.slice(0, 2000) : null,
    projectId: item.project_id ?? null,
    name: (thread ? (item.thread_id ?? '') : (run?.name ?? '')).slice(0, 2000),
    preview: run ? askedText(run.inputs, 120) : '',
    section,
    myStatus: mine ?? (section === 'needs_my_review' ? (item.last_reviewed_time ? 'viewed' : null) : (item.completed_by?.length ?? 0) > 0 ? 'completed' : null),
    reservedByOther: section === 'needs_others_review' && (item.reserved_by?.length ?? 0) > 0 && !(item.completed_by?.length ?? 0),
    addedAt: epochMs(item.effective_added_at ?? item.added_at),
  };
}

/** A feedback id made from the review attempt and the key, so a repeated Done writes each entry once. */
function feedbackId(attempt: string, key: string): string {
  const h = crypto.createHash('sha256').update(`${attempt}\u0000${key}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Drafts

/** Unfinished reviews of one queue, in the workspace state: survive a reload and a closed panel. */
class Drafts {
  constructor(
    private readonly memento: vscode.Memento,
    private readonly queueId: string,
  ) {}

  private get key(): string {
    return `langsmith.review.drafts/${this.queueId}`;
  }

  private all(): Record<string, Draft> {
    const raw = this.memento.get<unknown>(this.key);
    return raw && typeof raw === 'object' ? (raw as Record<string, Draft>) : {};
  }

  get(itemId: string): Draft | null {
    return this.all()[itemId] ?? null;
  }

  async set(itemId: string, draft: Draft | null): Promise<void> {
    const all = this.all();
    if (draft) all[itemId] = draft;
    else delete all[itemId];
    const kept = Object.entries(all)
      .sort((a, b) => b[1].savedAt - a[1].savedAt)
      .slice(0, DRAFTS_KEPT);
    await this.memento.update(this.key, kept.length ? Object.fromEntries(kept) : undefined);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The session

interface Known {
  item: QueueItem;
  section: QueueItemSection;
  run?: Run;
}

export class ReviewSession {
  private readonly clients: PanelClients;
  private readonly drafts: Drafts;
  private info: QueueInfo | undefined;
  /** Items met so far (lists, neighbours), with what their rows show. */
  private readonly known = new Map<string, Known>();
  /** Trace readers by run id (the item's run and the runs under it). */
  private readonly traces = new Map<string, TraceSession>();
  /** Item views read (or being read), most recent last. */
  private readonly views = new Map<string, Promise<ItemView>>();
  /** The item after each opened one among those needing my review, read ahead. */
  private readonly ahead = new Map<string, Promise<string | null>>();
  /** My status set in this panel, which the listing may not say. */
  private readonly mine = new Map<string, 'viewed' | 'completed'>();
  /** One random token per review attempt of an item (feedback ids come from it). */
  private readonly attempts = new Map<string, string>();
  /** The item the page shows (opened, or moved to): a reload of the page comes back to it. */
  private shown: string | undefined;
  /** The counts last read, changed by my own moves. */
  private lastCounts: Counts | undefined;
  /** Where an item was just seen to be (first of mine), so reading it at once needs no placement request. */
  private readonly placed = new Map<string, { section: QueueItemSection; position: number; at: number }>();

  constructor(
    private readonly services: PanelServices,
    private readonly key: ReviewKey,
  ) {
    this.clients = services.clients;
    this.drafts = new Drafts(services.workspaceState, key.queueId);
  }

  private get queueId(): string {
    return this.key.queueId;
  }

  async state(signal: AbortSignal): Promise<ReviewState> {
    try {
      const openOrNull = (id: string) => this.open(id, signal).catch((err: unknown) => (signal.aborted || err instanceof NotSignedInError ? Promise.reject(err) : null));
      // The item shown before the page reloaded, else the one asked for; one that is gone gives way to the first.
      // It is read alongside the queue: the first screen waits for the slower of the two only.
      const wanted = this.shown ?? this.key.itemId;
      const [queue, counts, asked] = await Promise.all([
        this.readQueue(signal),
        this.counts(signal),
        wanted ? openOrNull(wanted) : this.firstToReview(signal).then((first) => (first ? openOrNull(first) : null)),
      ]);
      let current = asked;
      if (!current && wanted) {
        const first = await this.firstToReview(signal);
        current = first ? await openOrNull(first) : null;
      }
      return { kind: 'review', queue, counts, current, mac: process.platform === 'darwin' };
    } catch (err) {
      if (signal.aborted) throw err;
      const problem = problemOf(err);
      if (problem.code === 'notFound') problem.message = vscode.l10n.t('This annotation queue was not found. It may have been deleted. ({0})', problem.message).slice(0, 2000);
      return { kind: 'problem', problem };
    }
  }

  /** The queue and counts read again (its settings changed elsewhere). */
  async refreshQueue(): Promise<{ queue: QueueInfo; counts: Counts }> {
    const signal = new AbortController().signal;
    const [queue, counts] = await Promise.all([this.readQueue(signal), this.counts(signal)]);
    return { queue, counts };
  }

  private async readQueue(signal: AbortSignal): Promise<QueueInfo> {
    const queue = await this.clients.call((c) => c.annotationQueues.read(this.queueId, { signal }));
    const keys = (queue.rubric_items ?? []).map((r) => r.feedback_key);
    const [configs, dataset] = await Promise.all([
      keys.length ? this.clients.call((c) => c.feedbackConfigs.read(keys, { signal })) : Promise.resolve(new Map<string, FeedbackConfigEntry>()),
      queue.default_dataset
        ? this.clients
            .call((c) => c.datasets.read({ datasetId: queue.default_dataset!, signal }))
            .then((d) => ({ id: d.id, name: d.name.slice(0, 2000) }))
            .catch((err: unknown) => {
              if (err instanceof LangSmithNotFoundError) return null;
              throw err;
            })
        : Promise.resolve(null),
    ]);
    this.info = queueInfo(queue, configs, dataset);
    return this.info;
  }

  /** The sections' counts as the server has them (kept, so that a move can say the new ones without asking). */
  private async counts(signal: AbortSignal): Promise<Counts> {
    this.lastCounts = await this.clients.call((c) => c.annotationQueues.items.counts(this.queueId, { signal }));
    return { ...this.lastCounts };
  }

  /** The counts after an item of mine left my review to `to` (or was removed), from the last ones read. */
  private countsAfter(from: QueueItemSection | undefined, to: QueueItemSection | null): Counts | null {
    const c = this.lastCounts;
    if (!c || !from) return null;
    const next = { ...c };
    next[from] = Math.max(0, next[from] - 1);
    if (to) next[to] += 1;
    this.lastCounts = next;
    return { ...next };
  }

  private async firstToReview(signal: AbortSignal): Promise<string | null> {
    const page = await this.clients.call((c) => c.annotationQueues.items.page(this.queueId, { section: 'needs_my_review', pageSize: 1, signal }));
    const item = page.items[0];
    if (item) {
      this.remember(item, 'needs_my_review');
      // Where it is needs no asking while this is fresh: first of mine.
      this.placed.set(item.id, { section: 'needs_my_review', position: 0, at: Date.now() });
    }
    return item?.id ?? null;
  }

  private remember(item: QueueItem, section: QueueItemSection, run?: Run): Known {
    const prev = this.known.get(item.id);
    const k = { item, section, run: run ?? prev?.run };
    this.known.set(item.id, k);
    return k;
  }

  /** The runs of these items, read together (one request), for their rows' names and previews. */
  private async runsOf(items: QueueItem[], signal: AbortSignal): Promise<Map<string, Run>> {
    const missing = items.filter((i) => i.run_id && !this.known.get(i.id)?.run);
    const out = new Map<string, Run>();
    for (const i of items) {
      const run = this.known.get(i.id)?.run;
      if (run && i.run_id) out.set(i.run_id, run);
    }
    if (!missing.length) return out;
    const projectIds = [...new Set(missing.map((i) => i.project_id).filter((p): p is string => !!p))];
    await this.clients.call(async (c) => {
      for await (const run of c.runs.query({ runIds: missing.map((i) => i.run_id!), projectIds, select: ['name', 'inputs', 'run_type', 'start_time', 'session_id'], limit: missing.length, signal })) {
        out.set(run.id, run);
      }
    });
    return out;
  }

  async listItems(section: QueueItemSection, cursor: string | null, signal: AbortSignal) {
    const [page, counts] = await Promise.all([
      this.clients.call((c) => c.annotationQueues.items.page(this.queueId, { section, cursor, pageSize: 100, signal })),
      this.counts(signal),
    ]);
    const runs = await this.runsOf(page.items, signal);
    const items = page.items.map((it) => {
      const run = it.run_id ? runs.get(it.run_id) : undefined;
      this.remember(it, section, run);
      return summaryOf(it, section, run, this.mine.get(it.id) ?? null);
    });
    return { items, cursor: page.nextCursor, counts };
  }

  /** The trace reader of a run met in this panel (the item's run or one under it). */
  traceOf(runId: string): TraceSession {
    const t = this.traces.get(runId);
    if (t) return t;
    for (const session of this.traces.values()) if (session.has(runId)) return session;
    throw new RequestError('requestFailed', vscode.l10n.t('That run is not part of the item shown. Open the item again.'));
  }

  /** Reads an item whole: where it is, its run's trace and detail (or its thread), its draft. */
  private async readView(itemId: string, signal: AbortSignal): Promise<ItemView> {
    // An item met in a list or read ahead is read at once, while the server says where it is now.
    const before = this.known.get(itemId);
    const early = before ? this.readBody(before.item, signal) : undefined;
    early?.catch(() => undefined);
    const fresh = this.placed.get(itemId);
    this.placed.delete(itemId);
    const place: { section?: QueueItemSection | null; position?: number | null; cursor?: string | null } =
      fresh && Date.now() - fresh.at < PLACEMENT_FRESH_MS ? fresh : await this.clients.call((c) => c.annotationQueues.items.placement(this.queueId, itemId, { signal }));
    const section = place.section ?? 'needs_my_review';
    let known = this.known.get(itemId);
    if (!known || known.section !== section) {
      // Listing from the item's cursor starts at it: its row, in one request.
      const page = await this.clients.call((c) => c.annotationQueues.items.page(this.queueId, { section, cursor: place.cursor, pageSize: 1, signal }));
      const item = page.items.find((i) => i.id === itemId);
      if (!item) throw new LangSmithNotFoundError(vscode.l10n.t('This item is no longer in the queue.'), { action: 'read queue item' });
      known = this.remember(item, section);
    }
    const body = await (early ?? this.readBody(known.item, signal));
    const item = known.item;
    // Named after its run, which the body has read.
    return {
      item: summaryOf(item, section, this.known.get(itemId)?.run, this.mine.get(itemId) ?? null),
      position: section === 'needs_my_review' && typeof place.position === 'number' ? place.position + 1 : null,
      ...body,
      draft: this.drafts.get(itemId),
    };
  }

  /** The item's run as the trace viewer reads it (the trace's runs only, no header extras), or its thread. */
  private async readBody(item: QueueItem, signal: AbortSignal): Promise<Pick<ItemView, 'trace' | 'run' | 'thread' | 'problem'>> {
    const base = { trace: null, run: null, thread: null, problem: null };
    try {
      if (item.run_id) {
        const runId = item.run_id;
        const run = await this.clients.call((c) => c.runs.read(runId, { projectId: item.project_id ?? undefined, attachments: true, signal }));
        const section = this.known.get(item.id)?.section ?? 'needs_my_review';
        this.remember(item, section, run);
        const session = new TraceSession(this.clients, { kind: 'trace', traceId: run.trace_id ?? run.id, ...(run.session_id ? { projectId: run.session_id } : {}), runId: run.id }, 'runs');
        session.remember(run);
        this.keepTrace(run.id, session);
        const [state, detail] = await Promise.all([session.state(signal), session.readRun(run.id, signal)]);
        return { ...base, trace: state.kind === 'trace' ? state.trace : null, run: detail, problem: state.kind === 'problem' ? state.problem : null };
      }
      if (item.thread_id && item.project_id) {
        const session = new TraceSession(this.clients, { kind: 'thread', threadId: item.thread_id, projectId: item.project_id });
        const state = await session.state(signal);
        return { ...base, thread: state.kind === 'thread' ? state.thread : null, problem: state.kind === 'problem' ? state.problem : null };
      }
      return base;
    } catch (err) {
      if (signal.aborted || err instanceof NotSignedInError) throw err;
      const problem = problemOf(err);
      if (problem.code === 'notFound') problem.message = vscode.l10n.t('The run of this item was not found (deleted, or past its retention). You can still review or remove the item. ({0})', problem.message).slice(0, 2000);
      return { ...base, problem };
    }
  }

  private keepTrace(runId: string, session: TraceSession): void {
    this.traces.delete(runId);
    this.traces.set(runId, session);
    while (this.traces.size > VIEWS_KEPT) this.traces.delete(this.traces.keys().next().value!);
  }

  /** An item's view, read once while it is fresh (a read ahead is used by the next open). */
  private view(itemId: string, signal: AbortSignal): Promise<ItemView> {
    const kept = this.views.get(itemId);
    if (kept) return kept;
    // A read ahead must outlive the request that started it: it gets its own signal.
    const ahead = new AbortController();
    void signal;
    const p = this.readView(itemId, ahead.signal);
    this.views.set(itemId, p);
    p.catch(() => this.views.delete(itemId));
    while (this.views.size > VIEWS_KEPT) this.views.delete(this.views.keys().next().value!);
    return p;
  }

  /** Opens an item for review: my status becomes viewed (which reserves it where the queue reserves), the next is read ahead. */
  async open(itemId: string, signal: AbortSignal): Promise<ItemView> {
    // Always fresh when opened: another reviewer may have moved it.
    this.views.delete(itemId);
    const view = await this.view(itemId, signal);
    // Not over my Done (a Done may have landed while the item was read).
    if (view.item.section === 'needs_my_review' && !this.mine.has(itemId)) this.markViewed(itemId, view);
    this.readAhead(itemId);
    this.shown = itemId;
    return view;
  }

  /** My viewed status (a reservation where the queue reserves), written without holding the answer. */
  private markViewed(itemId: string, view: ItemView): void {
    this.mine.set(itemId, 'viewed');
    view.item.myStatus = 'viewed';
    void this.clients.call((c) => c.annotationQueues.items.setStatus(itemId, 'viewed')).catch((err: unknown) => this.services.log.warn(`review: marking ${itemId} viewed failed: ${String(err)}`));
  }

  /** Starts reading the item after this one (among those needing my review) and its view. */
  private readAhead(itemId: string): void {
    if (this.ahead.has(itemId)) return;
    const abort = new AbortController();
    const next = this.neighbourId(itemId, 'next', abort.signal).catch(() => null);
    this.ahead.set(itemId, next);
    void next.then((id) => {
      if (id) this.view(id, abort.signal).catch(() => undefined);
    });
  }

  private async neighbourId(itemId: string, direction: 'next' | 'previous', signal: AbortSignal): Promise<string | null> {
    const place = await this.clients.call((c) => c.annotationQueues.items.placement(this.queueId, itemId, { signal }));
    if (place.section !== 'needs_my_review' || !place.cursor) {
      // Not among mine (done, or another's): the first one left to review, whichever way.
      const first = await this.firstToReview(signal);
      return first === itemId ? null : first;
    }
    const page = await this.clients.call((c) =>
      c.annotationQueues.items.page(this.queueId, { section: 'needs_my_review', cursor: place.cursor, pageSize: 2, direction: direction === 'next' ? 'forward' : 'backward', signal }),
    );
    for (const it of page.items) this.remember(it, 'needs_my_review');
    return page.items.find((i) => i.id !== itemId)?.id ?? null;
  }

  async neighbour(itemId: string, direction: 'next' | 'previous', signal: AbortSignal): Promise<ItemSummary | null> {
    const id = direction === 'next' && this.ahead.has(itemId) ? await this.ahead.get(itemId)! : await this.neighbourId(itemId, direction, signal);
    if (!id) return null;
    const k = this.known.get(id)!;
    const runs = await this.runsOf([k.item], signal);
    return summaryOf(k.item, k.section, k.item.run_id ? runs.get(k.item.run_id) : undefined, this.mine.get(id) ?? null);
  }

  async saveDraft(itemId: string, draft: Draft | null): Promise<void> {
    await this.drafts.set(itemId, draft);
  }

  /** After an item left my review: the next one (read ahead), open; the counts; a status line. */
  private async moveOn(itemId: string, moved: Counts | null, feedback: FeedbackItem[], message: (left: number) => string, signal: AbortSignal): Promise<Moved> {
    const aheadId = this.ahead.has(itemId) ? await this.ahead.get(itemId)! : null;
    this.ahead.delete(itemId);
    this.views.delete(itemId);
    const nextId = aheadId && aheadId !== itemId ? aheadId : await this.firstToReview(signal);
    // The counts follow from my move when they were read before; else they are read now.
    const [next, counts] = await Promise.all([nextId ? this.openAhead(nextId, signal) : Promise.resolve(null), moved ? Promise.resolve(moved) : this.counts(signal)]);
    if (next && typeof next.position === 'number') next.position = Math.min(next.position, Math.max(counts.needs_my_review, 1));
    this.shown = next?.item.id;
    return { next, counts, feedback, message: message(counts.needs_my_review).slice(0, 2000) };
  }

  /** Opens the next item using what was read ahead; its viewed status is written without holding the answer. */
  private async openAhead(itemId: string, signal: AbortSignal): Promise<ItemView | null> {
    try {
      const view = await this.view(itemId, signal);
      this.views.delete(itemId);
      if (view.item.section !== 'needs_my_review') return await this.open(itemId, signal);
      // The read ahead's position was counted before the current item left: one less now.
      const fresh = { ...view, item: { ...view.item, myStatus: 'viewed' as const }, position: view.position === null ? null : Math.max(1, view.position - 1), draft: this.drafts.get(itemId) };
      if (!this.mine.has(itemId)) this.markViewed(itemId, fresh);
      this.readAhead(itemId);
      return fresh;
    } catch (err) {
      if (err instanceof LangSmithNotFoundError) return null;
      throw err;
    }
  }

  /** Done: one feedback per filled rubric key (the comment and correction with the first), then completed for me. */
  async done(itemId: string, review: Review, signal: AbortSignal): Promise<Moved> {
    const info = this.info ?? (await this.readQueue(signal));
    const filled = new Map(review.fields.filter((f) => f.score !== null || (f.value !== null && f.value.trim() !== '')).map((f) => [f.key, f]));
    const missing = info.rubric.filter((r) => r.required && !filled.has(r.key)).map((r) => r.key);
    if (missing.length) throw new RequestError('invalidParams', vscode.l10n.t('Fill in the required {0} before Done.', missing.join(', ')));
    for (const f of filled.values()) {
      const field = info.rubric.find((r) => r.key === f.key);
      if (field?.config.type === 'continuous' && f.score !== null) {
        const { min, max } = field.config;
        if ((min !== null && f.score < min) || (max !== null && f.score > max))
          throw new RequestError('invalidParams', vscode.l10n.t('{0} must be between {1} and {2}.', f.key, String(min ?? '−∞'), String(max ?? '∞')));
      }
    }
    const correction = review.correction;
    if (correction !== null && (typeof correction !== 'object' || Array.isArray(correction)))
      throw new RequestError('invalidParams', vscode.l10n.t('The corrected outputs must be a JSON object, like the run’s outputs.'));
    const known = this.known.get(itemId);
    const runId = known?.item.run_id;
    if (!runId) throw new RequestError('requestFailed', vscode.l10n.t('This item has no run to write feedback on.'));
    const comment = review.comment?.trim() ? review.comment : null;
    const entries = [...filled.values()];
    if (!entries.length && (comment || correction !== null)) entries.push({ key: 'note', score: null, value: null });
    const attempt = this.attempts.get(itemId) ?? crypto.randomUUID();
    this.attempts.set(itemId, attempt);
    const source = { annotation_queue_id: this.queueId, queue_item_id: itemId };
    const written = await Promise.all(
      entries.map((f, i) =>
        this.clients.call((c) =>
          c.feedback.create({
            runId,
            key: f.key,
            ...(f.score !== null ? { score: f.score } : {}),
            ...(f.value !== null && f.value !== '' ? { value: f.value } : {}),
            ...(i === 0 && comment ? { comment } : {}),
            ...(i === 0 && correction !== null ? { correction } : {}),
            feedbackSourceType: 'app',
            sourceInfo: source,
            feedbackId: feedbackId(attempt, f.key),
            signal,
          }),
        ),
      ),
    );
    const status = await this.clients.call((c) => c.annotationQueues.items.setStatus(itemId, 'completed', { signal }));
    this.mine.set(itemId, 'completed');
    this.attempts.delete(itemId);
    await this.drafts.set(itemId, null);
    // The queue's row in the tree counts it as done.
    this.services.views.changed({ kind: 'queue', queueId: this.queueId, items: true });
    const counts = this.countsAfter(known?.section, status.is_archived ? 'archived' : 'needs_others_review');
    if (known) known.section = status.is_archived ? 'archived' : 'needs_others_review';
    return this.moveOn(itemId, counts, written.map(feedbackItem), (left) => (left === 1 ? vscode.l10n.t('Done · 1 left') : vscode.l10n.t('Done · {0} left', left)), signal);
  }

  /** Requeue: to the end of my order; the next item shows. */
  async requeue(itemId: string, signal: AbortSignal): Promise<Moved> {
    await this.clients.call((c) => c.annotationQueues.items.requeue(itemId, { signal }));
    this.mine.set(itemId, 'viewed');
    // Still mine to review, at the end: the counts are as they were.
    const counts = this.known.get(itemId)?.section === 'needs_my_review' && this.lastCounts ? { ...this.lastCounts } : null;
    return this.moveOn(itemId, counts, [], () => vscode.l10n.t('Sent to the end of your queue'), signal);
  }

  async remove(itemId: string, signal: AbortSignal): Promise<{ removed: boolean; moved: Moved | null }> {
    const name = this.known.get(itemId)?.run?.name ?? itemId;
    const ok = await prompter().confirm(
      vscode.l10n.t('Remove “{0}” from the queue “{1}”?', name, this.info?.name ?? ''),
      vscode.l10n.t('The run stays in its project; its feedback is kept.'),
      vscode.l10n.t('Remove'),
    );
    if (!ok) return { removed: false, moved: null };
    // What follows it must be known before it is gone.
    if (!this.ahead.has(itemId)) this.ahead.set(itemId, this.neighbourId(itemId, 'next', signal).catch(() => null));
    await this.ahead.get(itemId);
    await this.clients.call((c) => c.annotationQueues.items.delete(this.queueId, [itemId], { signal }));
    await this.drafts.set(itemId, null);
    this.services.views.changed({ kind: 'queue', queueId: this.queueId, items: true });
    const counts = this.countsAfter(this.known.get(itemId)?.section, null);
    this.known.delete(itemId);
    return { removed: true, moved: await this.moveOn(itemId, counts, [], () => vscode.l10n.t('Removed from the queue'), signal) };
  }

  async addToDataset(itemId: string, outputs: unknown, choose: boolean, signal: AbortSignal) {
    const known = this.known.get(itemId);
    const runId = known?.item.run_id;
    if (!runId) throw new RequestError('requestFailed', vscode.l10n.t('This item has no run to add to a dataset.'));
    if (outputs !== null && (typeof outputs !== 'object' || Array.isArray(outputs)))
      throw new RequestError('invalidParams', vscode.l10n.t('The corrected outputs must be a JSON object, like the run’s outputs.'));
    const run = known.run?.inputs !== undefined && known.run.outputs !== undefined ? known.run : await this.clients.call((c) => c.runs.read(runId, { signal }));
    let dataset = choose ? null : (this.info?.defaultDataset ?? null);
    if (!dataset) {
      dataset = await this.pickDataset(run.name ?? runId);
      if (!dataset) return { example: null, message: null };
    }
    const target = dataset;
    const example = await this.clients.call((c) =>
      c.examples.createOne({
        datasetId: target.id,
        inputs: (run.inputs ?? {}) as Record<string, unknown>,
        outputs: ((outputs ?? run.outputs) ?? undefined) as Record<string, unknown> | undefined,
        sourceRunId: runId,
        signal,
      }),
    );
    this.services.views.changed({ kind: 'dataset', datasetId: target.id });
    return { example: { id: example.id, datasetId: target.id, datasetName: target.name }, message: vscode.l10n.t('Added to “{0}” as an example.', target.name).slice(0, 2000) };
  }

  private async pickDataset(runName: string): Promise<{ id: string; name: string } | null> {
    type Item = vscode.QuickPickItem & { dataset: { id: string; name: string } };
    const items = this.clients.call(async (c) => {
      const list: Item[] = [];
      for await (const d of c.datasets.list({ limit: 500 })) list.push({ label: d.name, description: d.description ?? undefined, dataset: { id: d.id, name: d.name.slice(0, 2000) } });
      return list;
    });
    const picked = await prompter().pick(items, { title: vscode.l10n.t('Add “{0}” to a dataset', runName), placeholder: vscode.l10n.t('Choose a dataset') });
    return picked?.dataset ?? null;
  }

  async act(action: 'openTrace' | 'openThread' | 'editQueue' | 'openInLangSmith', runId: string | undefined, signal: AbortSignal) {
    switch (action) {
      case 'openTrace': {
        if (!runId) throw new RequestError('invalidParams', vscode.l10n.t('Which run’s trace?'));
        const run = [...this.known.values()].find((k) => k.run?.id === runId)?.run;
        await vscode.commands.executeCommand(Commands.openTrace, { runId, projectId: run?.session_id ?? undefined });
        return { message: null };
      }
      case 'openThread': {
        // The item shown (the page does not name the thread).
        const k = this.shown ? this.known.get(this.shown) : undefined;
        if (!k?.item.thread_id || !k.item.project_id) throw new RequestError('requestFailed', vscode.l10n.t('This item is not a thread.'));
        await vscode.commands.executeCommand(Commands.openThread, { threadId: k.item.thread_id, projectId: k.item.project_id });
        return { message: null };
      }
      case 'editQueue':
        await vscode.commands.executeCommand(Commands.editQueue, { queueId: this.queueId });
        return { message: null };
      case 'openInLangSmith': {
        if (!runId) throw new RequestError('invalidParams', vscode.l10n.t('Which run?'));
        const run = [...this.known.values()].find((k) => k.run?.id === runId)?.run ?? (await this.clients.call((c) => c.runs.read(runId, { signal })));
        const projectId = run.session_id;
        if (!projectId) throw new RequestError('requestFailed', vscode.l10n.t('This run does not name its project, so it has no page link.'));
        const url = await this.clients.call(async (c) => `${await c.links.project({ projectId, signal })}?peek=${encodeURIComponent(runId)}`);
        await vscode.env.openExternal(vscode.Uri.parse(url));
        return { message: null };
      }
    }
  }
}
