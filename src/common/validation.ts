// What every input box of the extension accepts. No `vscode` import, so the rules are unit-tested in Node; the
// messages go through @vscode/l10n, which activation points at the extension's own translation bundle.
import * as l10n from '@vscode/l10n';

/** Problems with a typed API key, or undefined when it looks usable. */
export function validateApiKeyInput(value: string): string | undefined {
  const key = value.trim();
  if (!key) return l10n.t('Enter your LangSmith API key.');
  if (/\s/.test(key)) return l10n.t('An API key has no spaces or line breaks.');
  if (key.length < 8) return l10n.t('That is too short to be a LangSmith API key.');
  return undefined;
}

/** Problems with a typed endpoint URL, or undefined when it is usable. */
export function validateEndpointInput(value: string): string | undefined {
  const text = value.trim();
  if (!text) return l10n.t('Enter the URL of the LangSmith API, e.g. https://langsmith.example.com/api/v1');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return l10n.t('That is not a URL: start with https:// (or http:// for a local server).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return l10n.t('Use an http:// or https:// URL.');
  if (url.username || url.password) return l10n.t('Leave credentials out of the URL; the API key is asked for next.');
  if (url.search || url.hash) return l10n.t('Leave query strings and fragments out of the endpoint URL.');
  return undefined;
}

/** Validation for names of projects, datasets and queues. */
export function validateName(kind: string): (value: string) => string | undefined {
  return (value) => {
    const v = value.trim();
    if (!v) return l10n.t('Give the {0} a name.', kind);
    if (v.length > 200) return l10n.t('Keep the {0} name under 200 characters.', kind);
    if (/\p{Cc}/u.test(v)) return l10n.t('Names cannot contain control characters.');
    return undefined;
  };
}

/** Validation for prompt names: the hub's handle rules (lowercase letters, digits, - and _). */
export function validatePromptName(value: string): string | undefined {
  const v = value.trim();
  if (!v) return l10n.t('Give the prompt a name.');
  if (v.length > 100) return l10n.t('Keep the prompt name under 100 characters.');
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(v)) return l10n.t('Use lowercase letters, digits, - and _ (starting with a letter or digit).');
  return undefined;
}

/** Feedback keys: one word (no spaces), at most 100 characters. */
export function validateFeedbackKey(value: string): string | undefined {
  const v = value.trim();
  if (!v) return l10n.t('Enter a feedback key, e.g. correctness.');
  if (/\s/.test(v)) return l10n.t('A feedback key has no spaces: use _ or -, e.g. user_score.');
  if (v.length > 100) return l10n.t('Keep the feedback key to 100 characters or fewer.');
  return undefined;
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** A feedback score: a number, or empty for none. */
export function validateFeedbackScore(value: string): string | undefined {
  const v = value.trim();
  if (!v) return undefined;
  if (!NUMBER.test(v) || !Number.isFinite(Number(v))) return l10n.t('The score is a number such as 1, 0 or 0.75; leave it empty to give a text value instead.');
  return undefined;
}

/** The score typed into a validated box, or undefined when left empty. */
export function parseFeedbackScore(value: string): number | undefined {
  const v = value.trim();
  return v ? Number(v) : undefined;
}

/** A correction: text, or JSON when it starts like JSON ({ or [). */
export function validateCorrection(value: string): string | undefined {
  const v = value.trim();
  if (!/^[[{]/.test(v)) return undefined;
  try {
    JSON.parse(v);
    return undefined;
  } catch (err) {
    return l10n.t('The correction starts like JSON but does not parse ({0}); fix it or write plain text.', err instanceof Error ? err.message : String(err));
  }
}

/** The correction of a validated box: parsed JSON, the text itself, or undefined when empty. */
export function parseCorrection(value: string): unknown {
  const v = value.trim();
  if (!v) return undefined;
  return /^[[{]/.test(v) ? JSON.parse(v) : v;
}

/** How long a presigned feedback link stays valid: whole hours from 1 to 720 (30 days). */
export function validateExpiryHours(value: string): string | undefined {
  const v = value.trim();
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 720) return l10n.t('Enter a whole number of hours from 1 to 720 (30 days).');
  return undefined;
}

/** Why the selected projects cannot be compared, or undefined when they can (two or more experiments of one dataset). */
export function comparisonProblem(projects: { name: string; referenceDatasetId?: string | null }[]): string | undefined {
  const notExperiments = projects.filter((p) => !p.referenceDatasetId);
  if (notExperiments.length) return l10n.t('“{0}” is not an experiment (it has no reference dataset); select experiment projects only.', notExperiments[0].name);
  if (projects.length < 2) return l10n.t('Select two or more experiment projects (Ctrl/Cmd-click) to compare them.');
  const datasets = new Set(projects.map((p) => p.referenceDatasetId));
  if (datasets.size > 1) return l10n.t('The selected experiments were run on different datasets; only experiments of the same dataset can be compared.');
  return undefined;
}
