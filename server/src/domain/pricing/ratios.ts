import type { AppContext } from '../../context.js';
import { defaultCompletionRatios, defaultGroupRatios, defaultModelRatios } from './default-ratios.js';

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** `model(type)` before `model`, the configured table before the built-in one (runs on every call). */
function lookup(
  configured: Record<string, number>,
  defaults: Record<string, number>,
  model: string,
  channelType: number,
): number | undefined {
  const typed = `${model}(${channelType})`;
  return finite(configured[typed]) ?? finite(defaults[typed]) ?? finite(configured[model]) ?? finite(defaults[model]);
}

/** one-api bills `qwen-…-internet` and `command-…-internet` as the model without the suffix. */
export const withoutInternetSuffix = (model: string) =>
  (model.startsWith('qwen-') || model.startsWith('command-')) && model.endsWith('-internet')
    ? model.slice(0, -'-internet'.length)
    : model;

/**
 * one-api's model ratio: `model(type)` then `model`, configured option before built-in default. Undefined
 * when neither names the model: one-api then charged 30, which ModelGate never does (decision 0026).
 */
export function modelRatio(context: AppContext, model: string, channelType: number): number | undefined {
  const configured = context.options.json<Record<string, number>>('ModelRatio');
  return lookup(configured, defaultModelRatios, withoutInternetSuffix(model), channelType);
}

/** The completion ratio: the tables first, then one-api's family rules (server-behaviour §5.1). */
export function completionRatio(context: AppContext, model: string, channelType: number): number {
  const configured = context.options.json<Record<string, number>>('CompletionRatio');
  const ratio = lookup(configured, defaultCompletionRatios, model, channelType);
  if (ratio !== undefined) return ratio;
  return familyCompletionRatio(model);
}

/** one-api's GetCompletionRatio fall-through rules. */
export function familyCompletionRatio(name: string): number {
  if (name.startsWith('gpt-3.5')) {
    if (name === 'gpt-3.5-turbo' || name.endsWith('0125')) return 3;
    if (name.endsWith('1106')) return 2;
    return 4 / 3;
  }
  if (name.startsWith('gpt-4')) {
    if (name.startsWith('gpt-4o')) return name === 'gpt-4o-2024-05-13' ? 3 : 4;
    if (name.startsWith('gpt-4-turbo') || name.endsWith('preview')) return 3;
    return 2;
  }
  if (name.startsWith('o1')) return 4;
  if (name === 'chatgpt-4o-latest') return 3;
  if (name.startsWith('claude-3')) return 5;
  if (name.startsWith('claude-')) return 3;
  if (name.startsWith('mistral-') || name.startsWith('gemini-')) return 3;
  if (name.startsWith('deepseek-')) return 2;
  return familyExceptions[name] ?? 1;
}

const familyExceptions: Record<string, number> = {
  'llama2-70b-4096': 0.8 / 0.64,
  'llama3-8b-8192': 2,
  'llama3-70b-8192': 0.79 / 0.59,
  command: 2,
  'command-light': 2,
  'command-nightly': 2,
  'command-light-nightly': 2,
  'command-r': 3,
  'command-r-plus': 5,
  'grok-beta': 3,
};

/** The group's ratio from the GroupRatio option; an unknown group pays 1. */
export function groupRatio(context: AppContext, group: string): number {
  const configured = context.options.json<Record<string, number>>('GroupRatio');
  const ratio = configured[group] ?? defaultGroupRatios[group];
  if (typeof ratio === 'number' && Number.isFinite(ratio) && ratio >= 0) return ratio;
  context.logger.warn({ group }, 'no group ratio: using 1');
  return 1;
}

/** `倍率：0.07 × 1.00 × 4.00` — ratios with two decimals, as one-api writes them (exact binary rounding). */
export const ratioText = (...ratios: number[]) => `倍率：${ratios.map((ratio) => ratio.toFixed(2)).join(' × ')}`;
