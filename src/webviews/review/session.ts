// The review panel's session: what it has read of one queue and how it moves through it — the queue and its
// counts, the items by section, each item's run as the trace viewer reads it (a TraceSession per item) with its
// draft, and the next item needing my review, read ahead so that Done answers with it at once. What the
// reviewer does to an item is in actions.ts.
import * as vscode from 'vscode';
import { NotSignedInError } from '../../auth/clientService';
import type { FeedbackConfigEntry, QueueItem, QueueItemSection, Run } from '../../client';
import { LangSmithNotFoundError } from '../../client/errors';
import type { Counts, Draft, ItemSummary, ItemView, Moved, QueueInfo, ReviewKey, ReviewState } from '../../protocol/review';
import { RequestError } from '../../protocol/router';
import type { FeedbackItem } from '../../protocol/trace';
import type { PanelClients, PanelServices } from '../panels';
import { TraceSession } from '../run/traceSession';
import { Drafts } from './drafts';
import { problemOf } from '../reported';
import { queueInfo, summaryOf } from './shapes';

/** Item views (and their trace readers) kept for going back and forth. */
const VIEWS_KEPT = 6;
/** How long where an item was just listed stands for its placement. */
const PLACEMENT_FRESH_MS = 2000;

interface Known {
  item: QueueItem;
  section: QueueItemSection;
  run?: Run;
}

/** An open review panel's reads and moves. Members that are not private are those ReviewActions uses too. */
export class ReviewSession {
  readonly clients: PanelClients;
  readonly drafts: Drafts;
  info: QueueInfo | undefined;
  /** Items met so far (lists, neighbours), with what their rows show. */
  readonly known = new Map<string, Known>();
  /** Trace readers by run id (the item's run and the runs under it). */
  private readonly traces = new Map<string, TraceSession>();
  /** Item views read (or being read), most recent last. */
  private readonly views = new Map<string, Promise<ItemView>>();
  /** The item after each opened one among those needing my review, read ahead. */
  readonly ahead = new Map<string, Promise<string | null>>();
  /** My status set in this panel, which the listing may not say. */
  readonly mine = new Map<string, 'viewed' | 'completed'>();
  /** One random token per review attempt of an item (feedback ids come from it). */
  readonly attempts = new Map<string, string>();
  /** The item the page shows (opened, or moved to): a reload of the page comes back to it. */
  shown: string | undefined;
  /** The counts last read, changed by my own moves. */
  lastCounts: Counts | undefined;
  /** Where an item was just seen to be (first of mine), so reading it at once needs no placement request. */
  private readonly placed = new Map<string, { section: QueueItemSection; position: number; at: number }>();

  constructor(
    readonly services: PanelServices,
    private readonly key: ReviewKey,
  ) {
    this.clients = services.clients;
    this.drafts = new Drafts(services.workspaceState, key.queueId);
  }

  get queueId(): string {
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

  async readQueue(signal: AbortSignal): Promise<QueueInfo> {
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
  countsAfter(from: QueueItemSection | undefined, to: QueueItemSection | null): Counts | null {
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

  async neighbourId(itemId: string, direction: 'next' | 'previous', signal: AbortSignal): Promise<string | null> {
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
  async moveOn(itemId: string, moved: Counts | null, feedback: FeedbackItem[], message: (left: number) => string, signal: AbortSignal): Promise<Moved> {
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
}
