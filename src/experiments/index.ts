// The experiment engine: evaluators files, evaluators, the LLM judge and the runner. Plain Node (no vscode).
export * from './types';
export { isEvaluatorsFile, parseEvaluators } from './evaluatorsFile';
export { evaluate, judgeMessages, parseJudgeAnswer, pickText, similarity, valueAt, words, SIMILARITY_MAX_WORDS, type EvaluationInput, type JudgeCall } from './evaluators';
export { checkJsonSchema, validateJson } from './jsonSchema';
export { CANCELLED_RUN_ERROR, MAX_CONCURRENCY, MIN_CONCURRENCY, experimentName, promptValues, runExperiment, unmappedVariables } from './run';
