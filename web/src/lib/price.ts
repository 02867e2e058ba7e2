/** Price units of the model catalogue toggle. */
export type PriceUnit = '1K' | '1M';

/** Extracts the first number in a price text such as '$2.5' or '输入 0.8 元'; null when there is none. */
export function extractPriceNumber(text: string | undefined | null): number | null {
  if (!text) return null;
  const match = /-?\d+(?:\.\d+)?/.exec(text.replace(/,/g, ''));
  if (!match) return null;
  const value = Number(match[0]);
  return Number.isFinite(value) ? value : null;
}

/**
 * Converts a catalogue price (stated per 1M tokens) to the chosen unit, 4 decimals.
 * Returns null when the text has no number, so the caller can show 'Unknown'.
 */
export function convertPrice(text: string | undefined | null, unit: PriceUnit): string | null {
  const value = extractPriceNumber(text);
  if (value === null) return null;
  return (unit === '1K' ? value / 1000 : value).toFixed(4);
}

/** Splits 'input；output' (full-width semicolon; an ASCII one is accepted too) into its two parts. */
export function splitPrice(text: string | undefined | null): { input: string; output: string } {
  const [input = '', output = ''] = (text ?? '').split(/[；;]/);
  return { input: input.trim(), output: output.trim() };
}
