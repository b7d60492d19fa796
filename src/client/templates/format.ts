import { LangSmithValidationError } from '../errors';
import { MSG } from '../messages';
import { fstringVariables, renderFString } from './fstring';
import { mustacheVariables, renderMustache } from './mustache';

export type TemplateFormat = 'f-string' | 'mustache';
export const TEMPLATE_FORMATS: readonly TemplateFormat[] = ['f-string', 'mustache'];

/** Throws ``Invalid template format. Got `x`; should be one of f-string,mustache`` for anything else. */
export function checkTemplateFormat(format: unknown): TemplateFormat {
  if (format === 'f-string' || format === 'mustache') return format;
  throw new LangSmithValidationError(MSG.invalidTemplateFormat(format));
}

export function extractVariables(template: string, format: TemplateFormat = 'f-string'): string[] {
  return checkTemplateFormat(format) === 'mustache' ? mustacheVariables(template) : fstringVariables(template);
}

export function renderTemplate(template: string, values: Record<string, unknown>, format: TemplateFormat = 'f-string'): string {
  return checkTemplateFormat(format) === 'mustache' ? renderMustache(template, values) : renderFString(template, values);
}
