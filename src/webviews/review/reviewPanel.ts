// The annotation review panel: one per queue. The host reads the queue with its rubric (each key's feedback
// config), the items by section, and each item's run as the trace viewer reads it (a TraceSession per item);
// it writes the review (one feedback per rubric key, the queue as source), my status on the item, and keeps
// drafts of unfinished reviews in the workspace state. While an item is shown, the next one needing my review
// is read ahead, so Done answers with it at once.
//
// This module wires the page's requests to its parts: shapes.ts (what the page is shown), drafts.ts (unfinished
// reviews), session.ts (reading and moving through the queue) and actions.ts (Done, Requeue, Remove, add to a
// dataset, links out).
import * as vscode from 'vscode';
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
} from '../../protocol/review';
import type { PanelApp } from '../panels';
import { reported } from '../reported';
import { ReviewActions } from './actions';
import { ReviewSession } from './session';

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
    const actions = new ReviewActions(session);
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
    host.router.onRequest(Done, ({ itemId, review }, { signal }) => reported(() => actions.done(itemId, review, signal)));
    host.router.onRequest(Requeue, ({ itemId }, { signal }) => reported(() => actions.requeue(itemId, signal)));
    host.router.onRequest(Remove, ({ itemId }, { signal }) => reported(() => actions.remove(itemId, signal)));
    host.router.onRequest(AddToDataset, (p, { signal }) => reported(() => actions.addToDataset(p.itemId, p.outputs, p.choose, signal)));
    host.router.onRequest(Act, ({ action, runId }, { signal }) => reported(() => actions.act(action, runId, signal)));
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
