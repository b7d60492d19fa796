export { checkTemplateFormat, extractVariables, renderTemplate, TEMPLATE_FORMATS, type TemplateFormat } from './format';
export { parseFString, fstringVariables, renderFString, writeFString, type FStringNode } from './fstring';
export { mustacheVariables, mustacheVariablePaths, renderMustache } from './mustache';
export * from './manifest';
