import type { TFunction } from 'i18next';
import zhLog from '../i18n/locales/zh-CN/log';

/**
 * The server writes a log's detail once, in Chinese, from fixed templates (and one-api's databases hold its own
 * Chinese templates); no column keeps the parts. The Chinese texts of the `log.content.*` keys are those
 * templates, so a stored detail is read back into its template and values, and shown again in the console's
 * language. Text that fits no template (an admin's remark, a future template) is shown as stored.
 */

type LogContentKey = Extract<keyof typeof zhLog, `log.content.${string}`>;

interface Template {
  key: LogContentKey;
  pattern: RegExp;
  names: string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function template(key: LogContentKey): Template {
  const names: string[] = [];
  const source = zhLog[key]
    .split(/(\{\{\w+\}\})/)
    .map((part) => {
      const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
      if (name === undefined) return escapeRegExp(part);
      names.push(name);
      return '([\\s\\S]+?)';
    })
    .join('');
  return { key, pattern: new RegExp(`^${source}$`), names };
}

/** Whole details: top-ups, bonuses, an admin's quota change, a returned hold, a channel test, a proxied call. */
const WHOLE = (
  [
    'log.content.codeTopUp',
    'log.content.apiTopUp',
    'log.content.signUpBonus',
    'log.content.inviteeBonus',
    'log.content.inviterBonus',
    // Before adminQuota, whose last value would take their notes in.
    'log.content.adminQuotaOverwritten',
    'log.content.adminQuotaMoved',
    'log.content.adminQuota',
    'log.content.refund',
    'log.content.testSucceeded',
    'log.content.testFailed',
    'log.content.proxy',
  ] as const
).map(template);

/**
 * The notes of a consume log, joined by the separator: the price (ratios, or a list price's input, output, group
 * ratio and context tier), web searches, prompt cache, conversation channel.
 */
const NOTES = (
  [
    'log.content.ratios',
    'log.content.priceInput',
    'log.content.priceOutput',
    'log.content.contextTier',
    'log.content.webSearches',
    'log.content.cacheRead',
    'log.content.cacheWritten',
    'log.content.sessionHit',
    'log.content.sessionMiss',
    'log.content.modelRatio',
    'log.content.groupRatio',
    'log.content.completionRatio',
  ] as const
).map(template);

/** Values that are themselves templated: amounts of quota and why a hold was returned. */
const FRAGMENTS = (
  [
    'log.content.quotaDollars',
    'log.content.quotaPoints',
    'log.content.refundUnsettled',
    'log.content.refundNodeStopped',
  ] as const
).map(template);
const TEMPLATED_VALUES = new Set(['quota', 'from', 'to', 'loaded', 'saved', 'reason']);

interface Parsed {
  key: LogContentKey;
  values: Record<string, string | Parsed>;
}

function match(text: string, templates: readonly Template[]): Parsed | null {
  for (const { key, pattern, names } of templates) {
    const found = pattern.exec(text);
    if (!found) continue;
    const values: Record<string, string | Parsed> = {};
    names.forEach((name, index) => {
      const value = found[index + 1] ?? '';
      values[name] = (TEMPLATED_VALUES.has(name) && match(value, FRAGMENTS)) || value;
    });
    return { key, values };
  }
  return null;
}

/** A stored detail as templates and values, or null when some part fits no template. */
function parseLogContent(content: string): Parsed[] | null {
  const whole = match(content, WHOLE);
  if (whole) return [whole];
  const notes = content.split(zhLog['log.content.separator']).map((note) => match(note, NOTES));
  return notes.every((note) => note !== null) ? (notes as Parsed[]) : null;
}

function render(parsed: Parsed, t: TFunction): string {
  const values = Object.fromEntries(
    Object.entries(parsed.values).map(([name, value]) => [name, typeof value === 'string' ? value : render(value, t)]),
  );
  return t(parsed.key, values);
}

/** A stored detail rendered again from its templates by `t`, or null when it fits none. */
export function renderLogContent(content: string, t: TFunction): string | null {
  const parsed = parseLogContent(content);
  return parsed && parsed.map((part) => render(part, t)).join(t('log.content.separator'));
}

/** A log's detail in the console's language: as stored for Chinese, else rendered again from its templates. */
export function translateLogContent(content: string, t: TFunction, language: string): string {
  if (!content || language.startsWith('zh')) return content;
  return renderLogContent(content, t) ?? content;
}
