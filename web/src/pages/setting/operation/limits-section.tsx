import { isValidJson } from '../../../lib/json';
import type { OptionField } from './option-fields';
import { OptionSection } from './option-section';
import type { OptionMap } from './use-options';

/** The group and model defaults of the limits (issue 31) and the zone a budget's period turns in. */
export const LIMITS: OptionField[] = [
  {
    key: 'GroupLimits',
    kind: 'json',
    placeholderKey: 'settingAdmin.placeholder.groupLimits',
    hintKey: 'settingAdmin.hint.groupLimits',
  },
  {
    key: 'TimeZone',
    kind: 'text',
    placeholderKey: 'settingAdmin.placeholder.timeZone',
    hintKey: 'settingAdmin.hint.timeZone',
  },
];

const LIMIT_KEYS = ['rpm_limit', 'tpm_limit', 'concurrency_limit'];
const isLimit = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether one group's (or one model's) entry holds only whole limits ≥ 0, and models only at group level. */
function validEntry(entry: unknown, allowModels: boolean): boolean {
  if (!isObject(entry)) return false;
  return Object.entries(entry).every(([key, value]) => {
    if (key === 'models' && allowModels)
      return isObject(value) && Object.values(value).every((model) => validEntry(model, false));
    return LIMIT_KEYS.includes(key) && isLimit(value);
  });
}

/**
 * The shape the server takes (wire's groupLimits): `{group: {rpm_limit?, tpm_limit?, concurrency_limit?,
 * models?: {model: {…}}}}`; checked here so a typo is told before the save, the server checking again.
 */
export function limitsError(values: Record<string, unknown>): string | null {
  const text = String(values.GroupLimits ?? '').trim();
  if (text) {
    if (!isValidJson(text)) return 'settingAdmin.limits.invalid.json';
    const parsed: unknown = JSON.parse(text);
    if (!isObject(parsed) || !Object.values(parsed).every((entry) => validEntry(entry, true)))
      return 'settingAdmin.limits.invalid.shape';
  }
  const zone = String(values.TimeZone ?? '').trim();
  if (!zone) return 'settingAdmin.limits.invalid.timeZone';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return 'settingAdmin.limits.invalid.timeZone';
  }
  return null;
}

/** Limits section of the operation settings: GroupLimits as JSON and the operator's time zone. */
export function LimitsSection({ options }: { options: OptionMap }) {
  return (
    <OptionSection titleKey="settingAdmin.section.limits" fields={LIMITS} options={options} validate={limitsError} />
  );
}
