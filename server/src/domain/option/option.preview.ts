import type { EffectivePrice, OptionPreview } from '@modelgate/wire';
import type { AppContext } from '../../context.js';
import { describe, effectivePrices } from '../pricing/effective-prices.js';
import { sharePriceBook } from '../pricing/price-book.js';
import { checkOption } from './option.service.js';

type CallPrice = OptionPreview['changes'][number]['before'];

/**
 * What a call pays per 1M input and output tokens, in US$ (the group ratio aside): a list price as listed, a
 * ratio as one-api charges it (ratio quota per token, completion ratio times that for output).
 */
function callPrice(price: EffectivePrice, quotaPerUnit: number): CallPrice {
  if (price.price)
    return { source: price.source, input: price.price.input ?? null, output: price.price.output ?? null };
  if (price.ratio) {
    const input = (price.ratio.model_ratio * 1_000_000) / quotaPerUnit;
    return { source: price.source, input, output: input * price.ratio.completion_ratio };
  }
  return { source: price.source, input: null, output: null };
}

const rowKey = (price: EffectivePrice) => `${price.model}\u0000${price.channel_type ?? ''}\u0000${price.group}`;
const sameCharge = (a: EffectivePrice, b: EffectivePrice) =>
  a.source === b.source &&
  JSON.stringify(a.price) === JSON.stringify(b.price) &&
  JSON.stringify(a.ratio) === JSON.stringify(b.ratio);

/**
 * The models whose price would move if these options were saved (each checked as a save checks it, none
 * saved): every model a channel serves, every admin price and every model a stored ratio table names,
 * before and after.
 */
export async function previewOptions(
  context: AppContext,
  changes: readonly { key: string; value: string }[],
): Promise<OptionPreview> {
  const checked = changes.map(({ key, value }) => checkOption(context.options, key, value));
  const options = context.options.withValues(checked);
  const preview: AppContext = { ...context, options };
  sharePriceBook(preview, context);
  const [before, after] = await Promise.all([effectivePrices(context), effectivePrices(preview)]);
  const beforeByKey = new Map(before.map((price) => [rowKey(price), price]));
  const afterByKey = new Map(after.map((price) => [rowKey(price), price]));
  // A model one side lists and the other does not (a ratio table's own names) is priced on that side too.
  const priced = (on: AppContext, listed: EffectivePrice) =>
    describe(on, { model: listed.model, channelType: listed.channel_type, group: listed.group });
  const keys = [...new Set([...beforeByKey.keys(), ...afterByKey.keys()])].sort();
  return {
    changes: keys.flatMap((key) => {
      const was = beforeByKey.get(key) ?? priced(context, afterByKey.get(key)!);
      const will = afterByKey.get(key) ?? priced(preview, was);
      if (sameCharge(was, will)) return [];
      return [
        {
          model: was.model,
          channel_type: was.channel_type,
          group: was.group,
          before: callPrice(was, context.options.number('QuotaPerUnit')),
          after: callPrice(will, options.number('QuotaPerUnit')),
        },
      ];
    }),
  };
}
