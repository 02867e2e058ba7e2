import { groupLimits, type GroupLimits } from '@modelgate/wire';
import { AppError } from '../../lib/errors.js';

const refuse = (zh: string, en: string) => new AppError('invalid_option', { zh, en });

/**
 * Checks the GroupLimits option: `{group: {rpm_limit?, tpm_limit?, concurrency_limit?, models?: {model: {…}}}}`,
 * every limit a whole number ≥ 0 (0 = none); the first problem is named with its path.
 */
export function checkGroupLimits(value: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw refuse('分组限制不是合法的 JSON 字符串', 'GroupLimits is not a valid JSON string');
  }
  const result = groupLimits.safeParse(parsed);
  if (result.success) return;
  const issue = result.error.issues[0]!;
  const where = issue.path.join('.');
  throw refuse(`分组限制 ${where}：${issue.message}`, `GroupLimits ${where}: ${issue.message}`);
}

/** Whether the name is an IANA time zone this runtime knows (`Asia/Shanghai`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name !== '';
  } catch {
    return false;
  }
}

export type { GroupLimits };
