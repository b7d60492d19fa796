// The queue settings form as the user writes it (numbers as typed, rows with local ids), and the pure steps
// around it: the draft made from the host's state, whether it differs from that state, and what Save sends
// (the form, the feedback configs that are new or changed) with every problem found before sending.
import { checkForm, type ConfigEntry, type QueueForm } from '../../../../src/protocol/queueSettings';
import type { FeedbackConfig } from '../../../../src/protocol/review';

export type ConfigType = FeedbackConfig['type'];

/** A feedback config being edited: both kinds' fields are kept, so switching the type back loses nothing. */
export interface ConfigDraft {
  key: string;
  type: ConfigType;
  min: string;
  max: string;
  categories: Array<{ value: string; label: string }>;
  lowerIsBetter: boolean;
}

export interface ItemDraft {
  /** Local id for rows and focus; not sent. */
  id: string;
  key: string;
  description: string;
  required: boolean;
  /** Continuous keys: what a score means, as rows (the score as typed). */
  scores: Array<{ score: string; description: string }>;
  /** Categorical keys: what a category means, by its label (pairs, so any label is safe as a key). */
  values: Array<{ label: string; description: string }>;
}

export interface Draft {
  version: 1;
  /** The snapshot of the server state this draft started from: a reload with other server data is noticed. */
  base: string;
  name: string;
  description: string;
  instructions: string;
  dataset: QueueForm['defaultDataset'];
  reviewers: string;
  reservations: boolean;
  minutes: string;
  items: ItemDraft[];
  /** Configs the user touched, by key (only those of rubric keys are ever sent). */
  configs: ConfigDraft[];
  nextId: number;
}

export interface Problem {
  field: string;
  message: string;
}

/** A key the workspace has no config for starts as a yes/no category. */
export const NEW_CATEGORIES = [
  { value: '0', label: 'no' },
  { value: '1', label: 'yes' },
];

const numText = (n: number | null) => (n === null ? '' : String(n));

export function newConfig(key: string): ConfigDraft {
  return { key, type: 'categorical', min: '0', max: '1', categories: NEW_CATEGORIES.map((c) => ({ ...c })), lowerIsBetter: false };
}

export function configFromEntry(e: ConfigEntry): ConfigDraft {
  const c = e.config;
  return {
    key: e.key,
    type: c.type,
    min: c.type === 'continuous' ? numText(c.min) : '0',
    max: c.type === 'continuous' ? numText(c.max) : '1',
    categories: c.type === 'categorical' ? c.categories.map((x) => ({ value: String(x.value), label: x.label })) : NEW_CATEGORIES.map((x) => ({ ...x })),
    lowerIsBetter: e.lowerIsBetter,
  };
}

export function draftFromState(form: QueueForm): Omit<Draft, 'base'> {
  return {
    version: 1,
    name: form.name,
    description: form.description,
    instructions: form.instructions,
    dataset: form.defaultDataset,
    reviewers: String(form.reviewersPerItem),
    reservations: form.reservations,
    minutes: String(form.reservationMinutes),
    items: form.rubric.map((r, i) => ({
      id: `i${i}`,
      key: r.key,
      description: r.description,
      required: r.required,
      scores: Object.entries(r.scoreDescriptions).map(([score, description]) => ({ score, description })),
      values: Object.entries(r.valueDescriptions).map(([label, description]) => ({ label, description })),
    })),
    configs: [],
    nextId: form.rubric.length,
  };
}

export function pristineDraft(form: QueueForm, configs: ConfigEntry[]): Draft {
  const d = draftFromState(form);
  return { ...d, base: snapshot({ ...d, base: '' }, configs) };
}

/** Whether a stored value is a draft this page can use. */
export function isDraft(v: unknown): v is Draft {
  const d = v as Draft | null;
  return !!d && typeof d === 'object' && d.version === 1 && typeof d.base === 'string' && Array.isArray(d.items) && Array.isArray(d.configs);
}

export const stateConfig = (configs: ConfigEntry[], key: string) => configs.find((c) => c.key === key);

/** The config the editor shows for a key: as edited, else the workspace's, else a new one. */
export function configFor(draft: Draft, configs: ConfigEntry[], key: string): ConfigDraft {
  const k = key.trim();
  const edited = draft.configs.find((c) => c.key === k);
  if (edited) return edited;
  const known = stateConfig(configs, k);
  return known ? configFromEntry(known) : newConfig(k);
}

const described = <T extends { description: string }>(rows: T[]): T[] => rows.filter((r) => r.description.trim() !== '');

/** What matters of the draft, in a fixed shape: equal snapshots mean nothing to save. */
export function snapshot(draft: Draft, configs: ConfigEntry[]): string {
  return JSON.stringify({
    name: draft.name,
    description: draft.description,
    instructions: draft.instructions,
    dataset: draft.dataset,
    reviewers: draft.reviewers.trim(),
    reservations: draft.reservations,
    minutes: draft.minutes.trim(),
    items: draft.items.map((item) => {
      const c = configFor(draft, configs, item.key);
      return {
        key: item.key,
        description: item.description,
        required: item.required,
        scores: c.type === 'continuous' ? described(item.scores).map((s) => [s.score.trim(), s.description]) : [],
        values: c.type === 'categorical' ? described(item.values).filter((v) => c.categories.some((x) => x.label === v.label)).map((v) => [v.label, v.description]) : [],
        config: [c.type, c.lowerIsBetter, c.type === 'continuous' ? [c.min.trim(), c.max.trim()] : c.type === 'categorical' ? c.categories.map((x) => [x.value.trim(), x.label]) : null],
      };
    }),
  });
}

function parseNumber(text: string): number | null | undefined {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

function parseWhole(text: string, low: number, high: number): number | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return n >= low && n <= high ? n : undefined;
}

/** A config draft as the protocol has it, with the problems of its numbers. */
function toEntry(c: ConfigDraft, problems: Problem[]): ConfigEntry {
  const field = `config.${c.key}`;
  let config: FeedbackConfig;
  if (c.type === 'continuous') {
    const min = parseNumber(c.min);
    const max = parseNumber(c.max);
    if (min === undefined) problems.push({ field, message: `${c.key}: the minimum is not a number.` });
    if (max === undefined) problems.push({ field, message: `${c.key}: the maximum is not a number.` });
    config = { type: 'continuous', min: min ?? null, max: max ?? null };
  } else if (c.type === 'categorical') {
    config = {
      type: 'categorical',
      categories: c.categories.map((x, i) => {
        const value = parseNumber(x.value);
        if (value === null || value === undefined) problems.push({ field, message: `${c.key}: category ${i + 1} needs a score (a number).` });
        return { value: value ?? 0, label: x.label };
      }),
    };
  } else config = { type: 'freeform' };
  return { key: c.key, config, lowerIsBetter: c.lowerIsBetter };
}

/** An entry in a fixed key order, for comparing with the workspace's. */
function canonical(e: ConfigEntry): string {
  const c = e.config;
  const config = c.type === 'continuous' ? [c.type, c.min, c.max] : c.type === 'categorical' ? [c.type, c.categories.map((x) => [x.value, x.label])] : [c.type];
  return JSON.stringify([e.key, config, e.lowerIsBetter]);
}

export interface Built {
  form: QueueForm;
  /** The configs of rubric keys that are new or differ from the workspace's. */
  configs: ConfigEntry[];
  problems: Problem[];
}

/** What Save sends, and every problem found before sending (the page's own, then `checkForm`'s). */
export function build(draft: Draft, configs: ConfigEntry[], fallback: QueueForm): Built {
  const problems: Problem[] = [];
  const reviewers = parseWhole(draft.reviewers, 1, 100);
  if (reviewers === undefined) problems.push({ field: 'reviewersPerItem', message: 'Reviewers per item: a whole number from 1 to 100.' });
  let minutes = parseWhole(draft.minutes, 1, 100_000);
  if (minutes === undefined) {
    // Off, the minutes are not used: the last saved value is kept.
    if (draft.reservations) problems.push({ field: 'reservationMinutes', message: 'Reservation minutes: a whole number from 1 to 100000.' });
    minutes = fallback.reservationMinutes;
  }
  const changed: ConfigEntry[] = [];
  const checkable: ConfigEntry[] = [];
  const rubric = draft.items.map((item, i) => {
    const key = item.key.trim();
    const c = configFor(draft, configs, key);
    const scoreDescriptions: Record<string, string> = {};
    const valueDescriptions: Record<string, string> = {};
    const put = (to: Record<string, string>, k: string, v: string) => Object.defineProperty(to, k, { value: v, enumerable: true, configurable: true, writable: true });
    if (c.type === 'continuous') {
      for (const s of described(item.scores)) {
        const score = s.score.trim();
        if (!score) problems.push({ field: `rubric.${i}.scores`, message: 'A score description needs its score (e.g. 0.5).' });
        else if (Object.hasOwn(scoreDescriptions, score)) problems.push({ field: `rubric.${i}.scores`, message: `The score ${score} is described twice.` });
        else put(scoreDescriptions, score, s.description);
      }
    }
    if (c.type === 'categorical') {
      for (const v of described(item.values)) if (c.categories.some((x) => x.label === v.label)) put(valueDescriptions, v.label, v.description);
    }
    if (key && !changed.some((e) => e.key === key)) {
      const own: Problem[] = [];
      const entry = toEntry(c, own);
      const known = stateConfig(configs, key);
      if (!known || canonical(known) !== canonical(entry)) {
        changed.push(entry);
        // A number that is not one is told as such, not as what its stand-in makes of the config.
        if (own.length) problems.push(...own);
        else checkable.push(entry);
      }
    }
    return { key, description: item.description, required: item.required, scoreDescriptions, valueDescriptions };
  });
  const form: QueueForm = {
    name: draft.name.trim(),
    description: draft.description,
    instructions: draft.instructions,
    rubric,
    defaultDataset: draft.dataset,
    reviewersPerItem: reviewers ?? fallback.reviewersPerItem,
    reservations: draft.reservations,
    reservationMinutes: minutes,
  };
  problems.push(...checkForm(form, checkable));
  return { form, configs: changed, problems };
}
