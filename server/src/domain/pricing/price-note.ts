import type { ResolvedPrice } from './price.js';
import type { Receipt } from './price-call.js';
import { ratioText } from './ratios.js';

/**
 * The price at the head of a consume log's text. A ratio price: one-api's `倍率：model × group` (text calls
 * also × completion ratio), as before. A list price: `价格：输入 $3/M，输出 $15/M，分组倍率 1.00`, the prices
 * of the tier that applied, then `，上下文 >200000 tokens 档` for that tier. The console translates this
 * text: keep its format.
 */
export function priceNote(resolved: ResolvedPrice, receipt: Receipt, withCompletionRatio: boolean): string {
  const { price } = resolved;
  if (price.kind === 'ratio') {
    const { model_ratio: modelRatio, completion_ratio: completionRatio } = price.ratio;
    return withCompletionRatio
      ? ratioText(modelRatio, receipt.group_ratio, completionRatio)
      : ratioText(modelRatio, receipt.group_ratio);
  }
  const { list } = price;
  const tier = receipt.tier === null ? undefined : list.tiers?.find((candidate) => candidate.above === receipt.tier);
  const input = tier?.input ?? list.input ?? 0;
  const output = tier?.output ?? list.output ?? 0;
  const text = `价格：输入 $${input}/M，输出 $${output}/M，分组倍率 ${receipt.group_ratio.toFixed(2)}`;
  return tier ? `${text}，上下文 >${tier.above} tokens 档` : text;
}
