// Experiments: the shapes shared by the client's experiment reads (`client.experiments`), the experiment runner
// and the evaluators (src/experiments/), the host (commands, the comparison panel) and later the agent tools.
// Plain TypeScript: no vscode import (checked by test/unit/plainNode.test.ts).

// ---------------------------------------------------------------------------------------------------------------
// Reading experiments: the shapes are the client's (`client.experiments`), which sits below this engine.

export type { ExperimentRow, ExperimentRun, ExperimentSummary, RunScore } from '../client/resources/experiments';

// ---------------------------------------------------------------------------------------------------------------
// Evaluators (`*.evaluators.yaml`)
//
//   dataset: demo-support-qa            # the dataset these evaluators are for (its name)
//   evaluators:
//     - type: exact_match                # key defaults to the type
//       output: answer                   # a field of the run's outputs (default: the only or first string one)
//       reference: answer                # a field of the example's outputs (default: likewise)
//       ignore_case: true                # exact_match, contains
//     - type: contains
//     - type: json_valid
//     - type: json_schema
//       schema: { type: object, required: [answer] }
//     - type: regex
//       pattern: '^[A-Z]'
//       flags: i
//     - type: similarity                 # 0–1, embedding-free (normalised edit distance over words)
//     - type: llm_judge
//       key: helpfulness
//       rubric: Is the answer correct and helpful for the question?
//       model: gpt-4o-mini               # optional: the playground's model otherwise
//       lower_is_better: false           # any evaluator; default false

export type EvaluatorType = 'exact_match' | 'contains' | 'json_valid' | 'json_schema' | 'regex' | 'similarity' | 'llm_judge';
export const EVALUATOR_TYPES: readonly EvaluatorType[] = ['exact_match', 'contains', 'json_valid', 'json_schema', 'regex', 'similarity', 'llm_judge'];

interface EvaluatorBase {
  /** The feedback key written. */
  key: string;
  /** The run output field compared (null: the only or first string field, else the whole outputs as JSON). */
  output: string | null;
  /** The reference output field (null: likewise on the example's outputs). */
  reference: string | null;
  lowerIsBetter: boolean;
}

export type EvaluatorSpec =
  | (EvaluatorBase & { type: 'exact_match' | 'contains'; ignoreCase: boolean })
  | (EvaluatorBase & { type: 'json_valid' })
  | (EvaluatorBase & { type: 'json_schema'; schema: Record<string, unknown> })
  | (EvaluatorBase & { type: 'regex'; pattern: string; flags: string })
  | (EvaluatorBase & { type: 'similarity' })
  | (EvaluatorBase & { type: 'llm_judge'; rubric: string; model: string | null });

/** A problem in an evaluators file, with its place (0-based line and column, as the prompt-file engine's). */
export interface EvaluatorsProblem {
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface EvaluatorsFile {
  dataset: string;
  evaluators: EvaluatorSpec[];
}

/** The result of one evaluator on one run, written as feedback (source type `model`). */
export interface EvaluationResult {
  key: string;
  score: number | null;
  value: string | null;
  comment: string | null;
}

// ---------------------------------------------------------------------------------------------------------------
// The LLM judge and the local server's model
//
// The judge sends two messages: a system message starting with JUDGE_SYSTEM_PREFIX, and a user message with the
// rubric, the input, the reference and the answer, each section starting with the headings below on a line of
// its own. It asks for a JSON object {"score": number 0–1, "comment": string}.
//
// The local server's model (local-echo) answers such a request by a fixed rule, so the demo and tests run
// offline: score = the share of the reference's distinct words (lower-cased runs of letters and digits) found
// among the answer's words, rounded to 2 decimals (1 when the reference has no words and the answer has some,
// 0 when the answer has none); comment = "local-echo judge: N of M reference words found in the answer."

export const JUDGE_SYSTEM_PREFIX = 'You are an evaluator.';
export const JUDGE_HEADINGS = { rubric: '## Rubric', input: '## Input', reference: '## Reference', answer: '## Answer' } as const;

// ---------------------------------------------------------------------------------------------------------------
// Running a prompt over a dataset (src/experiments/run.ts: `runExperiment(client, options)`)

export interface ModelChoice {
  /** An OpenAI-compatible base URL (the playground's endpoint). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  temperature?: number | null;
  maxTokens?: number | null;
  /** The extension's proxy-aware fetch. */
  fetch?: typeof fetch;
}

export interface RunExperimentOptions {
  dataset: { id: string; name: string };
  /** Only the examples of this split; null: all. */
  split?: string | null;
  /** The dataset at this version (a tag or an ISO time); null: the latest. */
  asOf?: string | null;
  /** The experiment project's name (made unique by the host: `<prompt>-<yyyymmdd-hhmmss>`). */
  experimentName: string;
  description?: string | null;
  /** The prompt: its name (`owner/name` or `name`), commit (null for a local file's text) and manifest
   *  (a LangSmith prompt manifest, as `PromptTemplate.fromManifest` takes). */
  prompt: { name: string; commit: string | null; manifest: unknown };
  /** Prompt variable → a field of the example's inputs (dotted path); unmapped variables use the same name. */
  mapping: Record<string, string>;
  model: ModelChoice;
  evaluators: EvaluatorSpec[];
  /** Examples in flight at once (1–32). */
  concurrency: number;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
}

export interface RunProgress {
  total: number;
  /** Examples whose run finished (with or without an error). */
  done: number;
  errored: number;
  /** Feedback entries written so far. */
  feedback: number;
}

export interface RunOutcome {
  experiment: { id: string; name: string; url: string | null };
  total: number;
  done: number;
  errored: number;
  feedback: number;
  /** Stopped by the signal: the examples not started were not run (the experiment keeps what was traced). */
  cancelled: boolean;
}

/** A prompt variable with no matching dataset input field (checked before any call; the host asks to map it). */
export interface UnmappedVariable {
  variable: string;
  /** The example input fields seen, to choose from. */
  fields: string[];
}
