// The prompt-file engine: the format (YAML and raw manifests), its conversion to the manifests LangSmith stores,
// style-keeping writes, `.prompty` import and the sync with LangSmith through src/client. No `vscode` here
// (eslint.config.mjs keeps that door): the extension, a command-line tool and a server use it alike.
// The extension loads it as a bundle of its own (dist/promptFile.js) with `await import('…/promptFile')` once
// a prompt file is open or a prompt command runs, so activation never parses YAML.
export * from './model';
export * from './yamlPositions';
export * from './parse';
export * from './manifest';
export * from './write';
export * from './fileNames';
export * from './sync';
export * from './plan';
export * from './prompty';
export * from './fromRun';
export { TEMPLATE_FORMATS } from '../client/templates/format';
export type { LcNode } from '../client/templates/manifest';
