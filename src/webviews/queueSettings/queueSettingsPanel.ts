// The queue settings panel's host side: one per queue (or one for a new queue). It reads the queue, its rubric
// and the workspace's feedback configs into the page's form; a save writes the configs that changed, then the
// queue (created when new), and answers what the server now has. The default dataset is picked with the host's
// picker; "Review" opens the queue's review.
import * as vscode from 'vscode';
import { NotSignedInError } from '../../auth/clientService';
import type { AnnotationQueue, FeedbackConfigBody, FeedbackConfigEntry, LangSmithClient } from '../../client';
import type { RubricItem } from '../../client/resources/annotationQueues';
import { isNotFound } from '../../client/errors';
import { prompter } from '../../common/prompter';
import { Commands } from '../../constants';
import type { ParamsOf, ResultOf } from '../../protocol/messages';
import {
  checkForm,
  OpenReview,
  PickDataset,
  QueueSettingsKey,
  QueueSettingsReady,
  Save,
  type ConfigEntry,
  type QueueForm,
  type QueueSettingsState,
} from '../../protocol/queueSettings';
import type { FeedbackConfig } from '../../protocol/review';
import { RequestError } from '../../protocol/router';
import type { PanelApp, PanelContext, PanelController, PanelServices } from '../panels';
import { reported } from '../reported';

/** The workspace's configs the page gets (the protocol's limit). */
const MAX_CONFIGS = 5000;
/** Datasets the default-dataset picker offers. */
const MAX_DATASETS = 1000;
const DEFAULT_RESERVATION_MINUTES = 60;

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

export const queueSettingsApp: PanelApp<QueueSettingsKey, typeof QueueSettingsReady.result.shape.state> = {
  ready: QueueSettingsReady,
  parseKey(raw) {
    const key = QueueSettingsKey.safeParse(raw);
    return key.success ? key.data : undefined;
  },
  keyId: (key) => key.queueId ?? 'new',
  title: (key) => (key.queueId ? vscode.l10n.t('Queue Settings') : vscode.l10n.t('New Annotation Queue')),
  open(context) {
    const session = new QueueSettingsSession(context);
    const { router } = context.host;
    router.onRequest(Save, (params, { signal }) => reported(() => session.save(params, signal)));
    router.onRequest(PickDataset, (_p, { signal }) => reported(() => session.pickDataset(signal)));
    router.onRequest(OpenReview, () => reported(() => session.openReview()));
    return session;
  },
};

/** A workspace config as the page shows it. */
export function toConfigEntry(e: FeedbackConfigEntry): ConfigEntry {
  const c = e.feedback_config;
  let config: FeedbackConfig;
  if (c.type === 'continuous') config = { type: 'continuous', min: c.min ?? null, max: c.max ?? null };
  else if (c.type === 'categorical') {
    config = { type: 'categorical', categories: (c.categories ?? []).slice(0, 100).map((cat) => ({ value: cat.value, label: clip(cat.label ?? String(cat.value), 2000) })) };
  } else config = { type: 'freeform' };
  return { key: e.feedback_key, config, lowerIsBetter: !!e.is_lower_score_better };
}

/** A config of the page as the API takes it. */
export function toConfigBody(config: FeedbackConfig): FeedbackConfigBody {
  if (config.type === 'continuous') return { type: 'continuous', min: config.min, max: config.max };
  if (config.type === 'categorical') return { type: 'categorical', categories: config.categories.map((c) => ({ value: c.value, label: c.label })) };
  return { type: 'freeform' };
}

function textRecord(r: Record<string, string> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, clip(String(v), 2000)]));
}

/** The form of a queue as the server has it. */
function formOf(q: AnnotationQueue, dataset: { id: string; name: string } | null): QueueForm {
  return {
    name: clip(q.name, 500),
    description: clip(q.description ?? '', 10_000),
    instructions: clip(q.rubric_instructions ?? '', 100_000),
    rubric: (q.rubric_items ?? []).slice(0, 100).map((r) => ({
      key: clip(r.feedback_key, 180),
      description: clip(r.description ?? '', 10_000),
      required: !!r.is_required,
      scoreDescriptions: textRecord(r.score_descriptions),
      valueDescriptions: textRecord(r.value_descriptions),
    })),
    defaultDataset: dataset,
    reviewersPerItem: Math.min(Math.max(1, q.num_reviewers_per_item ?? 1), 100),
    reservations: !!q.enable_reservations,
    reservationMinutes: Math.min(Math.max(1, q.reservation_minutes ?? DEFAULT_RESERVATION_MINUTES), 100_000),
  };
}

const EMPTY_FORM: QueueForm = {
  name: '',
  description: '',
  instructions: '',
  rubric: [],
  defaultDataset: null,
  reviewersPerItem: 1,
  reservations: false,
  reservationMinutes: DEFAULT_RESERVATION_MINUTES,
};

/** The rubric items of a form as the API stores them. */
function rubricItems(form: QueueForm): RubricItem[] {
  return form.rubric.map((r) => ({
    feedback_key: r.key.trim(),
    description: r.description.trim() || null,
    is_required: r.required,
    score_descriptions: Object.keys(r.scoreDescriptions).length ? r.scoreDescriptions : null,
    value_descriptions: Object.keys(r.valueDescriptions).length ? r.valueDescriptions : null,
  }));
}

function sameConfig(a: ConfigEntry, b: ConfigEntry | undefined): boolean {
  return !!b && a.lowerIsBetter === b.lowerIsBetter && JSON.stringify(a.config) === JSON.stringify(b.config);
}

/** One settings panel: the queue it edits (set once a new queue is saved) and the configs last shown. */
class QueueSettingsSession implements PanelController<QueueSettingsState> {
  private readonly services: PanelServices;
  private readonly setTitle: (title: string) => void;
  private queueId: string | null;
  private known = new Map<string, ConfigEntry>();

  constructor({ key, services, setTitle }: PanelContext<QueueSettingsKey>) {
    this.services = services;
    this.setTitle = setTitle;
    this.queueId = key.queueId;
  }

  private call<T>(work: (c: LangSmithClient) => Promise<T>): Promise<T> {
    return this.services.clients.call(work);
  }

  async state(signal: AbortSignal): Promise<QueueSettingsState> {
    try {
      return await this.read(signal);
    } catch (err) {
      if (err instanceof NotSignedInError) return { kind: 'problem', problem: { code: 'notSignedIn', message: clip(err.message, 2000) } };
      if (isNotFound(err)) return { kind: 'problem', problem: { code: 'notFound', message: vscode.l10n.t('This annotation queue no longer exists: it was deleted.') } };
      throw err;
    }
  }

  private async read(signal: AbortSignal): Promise<QueueSettingsState> {
    const queueId = this.queueId;
    const [queue, configs] = await this.call(async (c) => {
      const list = (async () => {
        const out: ConfigEntry[] = [];
        for await (const e of c.feedbackConfigs.list({ limit: MAX_CONFIGS, signal })) out.push(toConfigEntry(e));
        return out;
      })();
      return Promise.all([queueId ? c.annotationQueues.read(queueId, { signal }) : Promise.resolve(null), list]);
    });
    this.known = new Map(configs.map((e) => [e.key, e]));
    if (!queue) {
      this.setTitle(vscode.l10n.t('New Annotation Queue'));
      return { kind: 'settings', queueId: null, form: EMPTY_FORM, configs };
    }
    const datasetId = queue.default_dataset;
    const dataset = datasetId
      ? await this.call((c) => c.datasets.read({ datasetId, signal })).then(
          (d) => ({ id: d.id, name: clip(d.name, 2000) }),
          (err: unknown) => {
            if (isNotFound(err)) return null;
            throw err;
          },
        )
      : null;
    this.setTitle(vscode.l10n.t('Queue Settings · {0}', queue.name));
    return { kind: 'settings', queueId: queue.id, form: formOf(queue, dataset), configs };
  }

  async save({ form, configs }: ParamsOf<typeof Save>, signal: AbortSignal): Promise<ResultOf<typeof Save>> {
    const problems = checkForm(form, configs);
    if (problems.length) throw new RequestError('invalidParams', problems.map((p) => p.message).join('\n'));
    // The configs first: a rubric names keys whose configs the review form is built from.
    const changed = configs.filter((c) => !sameConfig(c, this.known.get(c.key)));
    for (const c of changed) {
      await this.call((client) => client.feedbackConfigs.upsert({ key: c.key, config: toConfigBody(c.config), isLowerScoreBetter: c.lowerIsBetter, signal }));
    }
    const settings = {
      description: form.description.trim() || null,
      rubricInstructions: form.instructions.trim() || null,
      rubricItems: rubricItems(form),
      defaultDatasetId: form.defaultDataset?.id ?? null,
      numReviewersPerItem: form.reviewersPerItem,
      enableReservations: form.reservations,
      reservationMinutes: form.reservationMinutes,
    };
    const name = form.name.trim();
    const queueId = this.queueId;
    if (queueId) {
      await this.call((c) => c.annotationQueues.update(queueId, { name, ...settings, signal }));
    } else {
      const created = await this.call((c) => c.annotationQueues.create({ name, ...settings, signal }));
      this.queueId = created.id;
    }
    this.services.log.info(`Saved the settings of annotation queue ${this.queueId}${changed.length ? ` and ${changed.length} feedback config(s)` : ''}.`);
    // The tree shows the queue's name, size and the configs, and its review panel the rubric: they reload them.
    this.services.changes.publish({ kind: 'queue', queueId: this.queueId! });
    const state = await this.state(signal);
    return { state, message: queueId ? vscode.l10n.t('Saved “{0}”.', clip(name, 1900)) : vscode.l10n.t('Created “{0}”.', clip(name, 1900)) };
  }

  async pickDataset(signal: AbortSignal): Promise<ResultOf<typeof PickDataset>> {
    type Item = vscode.QuickPickItem & { dataset?: { id: string; name: string }; clear?: boolean };
    const items = this.call(async (c) => {
      const list: Item[] = [{ label: vscode.l10n.t('No default dataset'), detail: vscode.l10n.t('Reviewers add runs to a dataset they choose each time'), clear: true, alwaysShow: true }];
      for await (const d of c.datasets.list({ limit: MAX_DATASETS, signal })) {
        list.push({ label: d.name, description: d.description ?? undefined, dataset: { id: d.id, name: clip(d.name, 2000) } });
      }
      return list;
    });
    const picked = await prompter().pick(items, { title: vscode.l10n.t('Default dataset of the queue'), placeholder: vscode.l10n.t('Where reviewers add runs as examples') });
    if (!picked) return { dataset: null, clear: false };
    if (picked.clear) return { dataset: null, clear: true };
    return { dataset: picked.dataset ?? null, clear: false };
  }

  async openReview(): Promise<Record<string, never>> {
    const queueId = this.queueId;
    if (!queueId) throw new RequestError('invalidParams', vscode.l10n.t('Save the queue first.'));
    await vscode.commands.executeCommand(Commands.reviewQueue, { queueId });
    return {};
  }
}
