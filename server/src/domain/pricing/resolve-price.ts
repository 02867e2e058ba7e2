import { listPrice, type ListPrice } from '@modelgate/wire';
import type { AppContext } from '../../context.js';
import { AppError, isAppError } from '../../lib/errors.js';
import { defaultModelRatios } from './default-ratios.js';
import { completionRatio, modelRatio, withoutInternetSuffix } from './ratios.js';
import { optionDefinitions } from '../option/option.definitions.js';
import { cataloguePrice } from './catalogue.js';
import type { RatioPrice, ResolvedPrice } from './price.js';
import { priceBook } from './price-book.js';

/** The relay's refusal of a model nothing prices: which model, and how to give it a price. */
export const priceMissing = (model: string) =>
  new AppError(
    'model_price_missing',
    {
      zh: `模型 ${model} 没有价格：请管理员在运营设置中为它设置价格（PUT /api/price/），或设置未知模型的默认价格（选项 DefaultModelPrice）`,
      en: `model ${model} has no price: an admin sets one in the operation settings (PUT /api/price/), or a default price for unknown models (the DefaultModelPrice option)`,
    },
    403,
  );

export const isPriceMissing = (error: unknown) => isAppError(error) && error.code === 'model_price_missing';

/** The reference of a price from one-api's built-in ratio table. */
export const builtInRatioReference = 'one-api built-in ratio table';

/**
 * Whether the admin stored a ratio option. ModelGate never writes an option's default to the database, so
 * an option differs from its default text exactly when a row holds it: a one-api database's ratios (its
 * console saves the whole map), or an admin's edit through /api/option. A row holding ModelGate's very
 * default text would read as not stored, and price the same models from the catalogue (decision 0026).
 */
const isStored = (context: AppContext, key: 'ModelRatio' | 'CompletionRatio') =>
  context.options.string(key) !== optionDefinitions[key].defaultValue;

const hasKey = (map: Record<string, unknown>, model: string, channelType: number) =>
  Object.hasOwn(map, `${model}(${channelType})`) || Object.hasOwn(map, model);

/** The model's ratios (stored, else built in), or null when no ratio table names it. */
function ratioPrice(context: AppContext, model: string, channelType: number): RatioPrice | null {
  const ratio = modelRatio(context, model, channelType);
  if (ratio === undefined) return null;
  return {
    model_ratio: ratio,
    completion_ratio: completionRatio(context, model, channelType),
    web_searches_per_1000: context.options.number('WebSearchPrice'),
  };
}

/**
 * Whether the ratios the admin stored name the model: its price is then one-api's, charged as before. A
 * completion ratio stored for a model whose model ratio is built in counts too (one-api's console edit of
 * that ratio alone).
 */
function storedRatioNames(context: AppContext, model: string, channelType: number): boolean {
  const name = withoutInternetSuffix(model);
  return (
    (isStored(context, 'ModelRatio') &&
      hasKey(context.options.json<Record<string, number>>('ModelRatio'), name, channelType)) ||
    (isStored(context, 'CompletionRatio') &&
      hasKey(context.options.json<Record<string, number>>('CompletionRatio'), model, channelType) &&
      hasKey(defaultModelRatios, name, channelType))
  );
}

const ratioResolved = (model: string, ratio: RatioPrice, reference: string): ResolvedPrice => ({
  model,
  source: 'ratio',
  price: { kind: 'ratio', ratio },
  groupPrice: false,
  reference,
});

/** The admin's price for models no price covers, when set (DefaultModelPrice: a flat list price). */
function defaultPrice(context: AppContext): ListPrice | null {
  const parsed = listPrice.safeParse(context.options.json<unknown>('DefaultModelPrice'));
  return parsed.success && Object.keys(parsed.data).length > 0 ? parsed.data : null;
}

/**
 * The price of a call of `model` on a channel of `channelType` for a user of `group`, in this order: the
 * admin's price (the group's own, then every group's; `model(type)` before `model`), one-api's ratios the
 * admin stored, the built-in catalogue at time `at`, one-api's built-in ratio table for the models it
 * names, the admin's default for unknown models; otherwise the call is refused (decision 0026). Never
 * one-api's 30 for a model nothing names.
 */
export function resolvePrice(
  context: AppContext,
  model: string,
  channelType: number,
  group: string,
  at: Date = new Date(),
): ResolvedPrice {
  const book = priceBook(context);
  const admin = book.find(`${model}(${channelType})`, group) ?? book.find(model, group);
  if (admin)
    return {
      model,
      source: 'admin',
      price: { kind: 'list', list: admin.list },
      groupPrice: admin.group !== '',
      reference: admin.note,
    };
  const stored = storedRatioNames(context, model, channelType) ? ratioPrice(context, model, channelType) : null;
  if (stored) return ratioResolved(model, stored, 'ModelRatio');
  const listed = cataloguePrice(model, channelType, at);
  if (listed)
    return {
      model,
      source: 'catalogue',
      price: { kind: 'list', list: listed.list },
      groupPrice: false,
      reference: listed.reference,
    };
  // Models the catalogue lacks (Qwen, ERNIE, Hunyuan, Spark, Doubao…) keep the price one-api's table gave them.
  const builtIn = hasKey(defaultModelRatios, withoutInternetSuffix(model), channelType)
    ? ratioPrice(context, model, channelType)
    : null;
  if (builtIn) return ratioResolved(model, builtIn, builtInRatioReference);
  const fallback = defaultPrice(context);
  if (fallback)
    return {
      model,
      source: 'default',
      price: { kind: 'list', list: fallback },
      groupPrice: false,
      reference: 'DefaultModelPrice',
    };
  throw priceMissing(model);
}
