import { aiProxyBalance } from './aiproxy.balance.js';
import type { BalanceReader } from './balance-reader.js';
import { creditGrantsBalance } from './credit-grants.balance.js';
import { deepSeekBalance } from './deepseek.balance.js';
import { openAISBBalance } from './openai-sb.balance.js';
import { openAIBalance } from './openai.balance.js';
import { openRouterBalance } from './openrouter.balance.js';
import { siliconFlowBalance } from './siliconflow.balance.js';

const readers: readonly BalanceReader[] = [
  openAIBalance,
  creditGrantsBalance,
  openAISBBalance,
  aiProxyBalance,
  openRouterBalance,
  deepSeekBalance,
  siliconFlowBalance,
];

/** Channel type → the reader of its balance; types absent here cannot report one. */
export const balanceReaders: ReadonlyMap<number, BalanceReader> = new Map(
  readers.flatMap((reader) => reader.types.map((type) => [type, reader] as const)),
);

/** The types whose balance can be queried, ascending. */
export const balanceTypes = [...balanceReaders.keys()].sort((left, right) => left - right);
