import type { DatabaseHandle } from '../../db/connect.js';
import { AppError } from '../../lib/errors.js';
import { checkGroupLimits, isTimeZone } from '../limits/group-limits.js';
import { isBuiltInTable, isOptionKey, optionDefinitions, type OptionKey } from './option.definitions.js';
import type { OptionStore } from './option.store.js';

const themes = new Set(['default', 'berry', 'air']);

const ratioNames: Partial<Record<OptionKey, { zh: string; en: string }>> = {
  ModelRatio: { zh: '模型倍率', en: 'model ratio' },
  CompletionRatio: { zh: '补全倍率', en: 'completion ratio' },
  GroupRatio: { zh: '分组倍率', en: 'group ratio' },
};

const refuse = (zh: string, en: string) => new AppError('invalid_option', { zh, en });

/** Checks a new value against its kind and one-api's enabling rules; nothing is saved when it fails. */
function validateOption(store: OptionStore, key: OptionKey, value: string): void {
  const definition = optionDefinitions[key];
  switch (definition.kind) {
    case 'bool':
      if (value !== 'true' && value !== 'false')
        throw refuse(`${key} 只能是 true 或 false`, `${key} must be true or false`);
      break;
    case 'int':
      if (!/^-?\d+$/.test(value.trim()) || Number(value) < 0)
        throw refuse(`${key} 必须是非负整数`, `${key} must be a non-negative integer`);
      break;
    case 'float':
      if (value.trim() === '' || !Number.isFinite(Number(value)) || Number(value) < 0)
        throw refuse(`${key} 必须是非负数`, `${key} must be a non-negative number`);
      break;
    case 'json': {
      if (key === 'GroupLimits') {
        checkGroupLimits(value);
        break;
      }
      const name = ratioNames[key] ?? { zh: key, en: key };
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        throw refuse(`${name.zh}不是合法的 JSON 字符串`, `${name.en} is not a valid JSON string`);
      }
      const isRatioMap =
        typeof parsed === 'object' &&
        parsed !== null &&
        !Array.isArray(parsed) &&
        Object.values(parsed).every((ratio) => typeof ratio === 'number' && Number.isFinite(ratio) && ratio >= 0);
      if (!isRatioMap)
        throw refuse(`${name.zh}必须是名称到非负数的 JSON 对象`, `${name.en} must map names to non-negative numbers`);
      break;
    }
    default:
      break;
  }
  if (value.length > 1_000_000) throw refuse('选项值过长', 'option value is too long');
  if (key === 'Theme' && !themes.has(value)) throw refuse('无效的主题', 'invalid theme');
  if (key === 'TimeZone' && !isTimeZone(value))
    throw refuse(`未知的时区：${value}`, `unknown time zone: ${value} (an IANA name such as Asia/Shanghai)`);
  if (value !== 'true') return;
  if (key === 'GitHubOAuthEnabled' && store.string('GitHubClientId') === '')
    throw refuse(
      '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
      'Cannot enable GitHub OAuth: fill in the GitHub Client Id and Client Secret first',
    );
  if (key === 'EmailDomainRestrictionEnabled' && store.string('EmailDomainWhitelist').trim() === '')
    throw refuse(
      '无法启用邮箱域名限制，请先填入限制的邮箱域名！',
      'Cannot restrict email domains: fill in the allowed domains first',
    );
  if (key === 'WeChatAuthEnabled' && store.string('WeChatServerAddress') === '')
    throw refuse(
      '无法启用微信登录，请先填入微信登录相关配置信息！',
      'Cannot enable WeChat login: fill in the WeChat server settings first',
    );
  if (key === 'TurnstileCheckEnabled' && store.string('TurnstileSiteKey') === '')
    throw refuse(
      '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！',
      'Cannot enable Turnstile: fill in the Turnstile site key first',
    );
}

function normalise(key: OptionKey, value: string): string {
  if (key === 'ServerAddress') return value.trim().replace(/\/+$/, '');
  if (key === 'EmailDomainWhitelist')
    return [
      ...new Set(
        value
          .split(',')
          .map((domain) => domain.trim().toLowerCase())
          .filter(Boolean),
      ),
    ].join(',');
  return value;
}

/** Whether a ratio table's text is its built-in table, written in any order or layout (one-api's console re-sends it). */
function isBuiltInText(key: OptionKey, value: string): boolean {
  if (value.trim() === '') return true;
  const canonical = (text: string) => {
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? JSON.stringify(Object.entries(parsed).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : null;
    } catch {
      return null;
    }
  };
  const text = canonical(value);
  return text !== null && text === canonical(optionDefinitions[key].defaultValue);
}

/** Checks an option change as a save would, without saving it; answers the value a save would store. */
export function checkOption(store: OptionStore, key: string, value: string): { key: OptionKey; value: string } {
  if (!isOptionKey(key)) throw refuse(`未知的选项：${key}`, `unknown option: ${key}`);
  const normalised = normalise(key, value);
  // Empty, or the built-in table's very text: nothing of the admin's, so no row (the built-in table applies).
  if (isBuiltInTable(key) && isBuiltInText(key, normalised)) return { key, value: optionDefinitions[key].defaultValue };
  validateOption(store, key, normalised);
  return { key, value: normalised };
}

/** Validates, saves and applies one option. Unknown keys are refused (one-api stored anything). */
export async function updateOption(
  database: DatabaseHandle,
  store: OptionStore,
  key: string,
  value: string,
): Promise<void> {
  const { key: checkedKey, value: normalised } = checkOption(store, key, value);
  if (isBuiltInTable(checkedKey) && normalised === optionDefinitions[checkedKey].defaultValue) {
    await database.db.deleteFrom('options').where('key', '=', checkedKey).execute();
    store.apply(checkedKey, normalised);
    return;
  }
  const insert = database.db.insertInto('options').values({ key, value: normalised });
  await (
    database.dialect === 'mysql'
      ? insert.onDuplicateKeyUpdate({ value: normalised })
      : insert.onConflict((conflict) => conflict.column('key').doUpdateSet({ value: normalised }))
  ).execute();
  store.apply(key, normalised);
}
