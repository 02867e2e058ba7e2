import { Form, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';

const rateLimits = ['rpm_limit', 'tpm_limit', 'concurrency_limit'] as const;
const budgetPeriods = ['', 'day', 'week', 'month'] as const;

/**
 * Issue 31: the rpm, tpm and concurrency limits and the budget per period, as one row of form fields named
 * rpm_limit, tpm_limit, concurrency_limit, budget_quota and budget_period. A token's and a user's edit page
 * both use it, with the same labels.
 */
export function LimitFields() {
  const { t } = useTranslation();
  return (
    <Space wrap align="start">
      {rateLimits.map((name) => (
        <Form.Item key={name} name={name} label={t(`token.form.${name}`)}>
          <InputNumber min={0} precision={0} style={{ width: 180 }} />
        </Form.Item>
      ))}
      <Form.Item name="budget_quota" label={t('token.form.budget_quota')}>
        <InputNumber min={0} precision={0} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="budget_period" label={t('token.form.budget_period')}>
        <Select
          style={{ width: 140 }}
          options={budgetPeriods.map((period) => ({
            value: period,
            label: t(`token.budgetPeriod.${period || 'none'}`),
          }))}
        />
      </Form.Item>
    </Space>
  );
}
