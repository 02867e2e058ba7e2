import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { loadNamespaces } from '../../../i18n';
import { LimitsSection } from './limits-section';
import { LogCleanup } from './log-cleanup';
import type { OptionField } from './option-fields';
import { OptionSection } from './option-section';
import { OptionSwitch } from './option-switch';
import { RatioSection } from './ratio-section';
import { useOptions } from './use-options';

const GENERAL: OptionField[] = [
  { key: 'TopUpLink', kind: 'text', placeholderKey: 'settingAdmin.placeholder.url' },
  { key: 'ChatLink', kind: 'text', placeholderKey: 'settingAdmin.placeholder.url' },
  { key: 'QuotaPerUnit', kind: 'number', min: 0, step: 0.01 },
  { key: 'RetryTimes', kind: 'number', min: 0, step: 1 },
  { key: 'StickySessionTtlSeconds', kind: 'number', min: 0, step: 1, hintKey: 'settingAdmin.hint.stickySession' },
];
/** Days each log type is kept (ModelGate's own options; 0 keeps forever), then the hourly rollups. */
export const LOG_RETENTION: OptionField[] = [
  { key: 'LogRetentionDaysConsume', kind: 'number', min: 0, step: 1, hintKey: 'settingAdmin.hint.logRetention' },
  { key: 'LogRetentionDaysTopUp', kind: 'number', min: 0, step: 1, hintKey: 'settingAdmin.hint.keepForever' },
  { key: 'LogRetentionDaysManage', kind: 'number', min: 0, step: 1, hintKey: 'settingAdmin.hint.keepForever' },
  { key: 'LogRetentionDaysSystem', kind: 'number', min: 0, step: 1, hintKey: 'settingAdmin.hint.keepForever' },
  { key: 'LogRetentionDaysTest', kind: 'number', min: 0, step: 1, hintKey: 'settingAdmin.hint.keepForever' },
  { key: 'LogRollupRetentionDays', kind: 'number', min: 0, step: 1, hintKey: 'settingAdmin.hint.logRollupRetention' },
];
const MONITORING: OptionField[] = [{ key: 'ChannelDisableThreshold', kind: 'number', min: 0, step: 0.5 }];
const QUOTA: OptionField[] = [
  { key: 'QuotaForNewUser', kind: 'number', min: 0 },
  { key: 'PreConsumedQuota', kind: 'number', min: 0 },
  { key: 'QuotaForInviter', kind: 'number', min: 0 },
  { key: 'QuotaForInvitee', kind: 'number', min: 0 },
  { key: 'QuotaRemindThreshold', kind: 'number', min: 0 },
];

/** The price settings, with their texts (and the channel types' names), loaded when the tab opens. */
const PriceSetting = lazy(async () => {
  const [page] = await Promise.all([import('../price/price-setting'), loadNamespaces(['price', 'channel'])]);
  return page;
});

/** Operation settings (admin): general, logging, monitoring, quota, ratios, model prices. */
export function OperationSetting() {
  const options = useOptions();
  if (!options) return <Skeleton active />;
  const common = { options };
  return (
    <>
      <OptionSection titleKey="settingAdmin.section.general" fields={GENERAL} {...common}>
        <OptionSwitch optionKey="DisplayInCurrencyEnabled" {...common} />
        <OptionSwitch optionKey="DisplayTokenStatEnabled" {...common} />
        <OptionSwitch optionKey="ApproximateTokenEnabled" {...common} />
      </OptionSection>
      <OptionSection titleKey="settingAdmin.section.logging" fields={LOG_RETENTION} {...common}>
        <OptionSwitch optionKey="LogConsumeEnabled" {...common} />
        <LogCleanup />
      </OptionSection>
      <OptionSection titleKey="settingAdmin.section.monitoring" fields={MONITORING} {...common}>
        <OptionSwitch optionKey="AutomaticDisableChannelEnabled" {...common} />
        <OptionSwitch optionKey="AutomaticEnableChannelEnabled" {...common} />
      </OptionSection>
      <OptionSection titleKey="settingAdmin.section.quota" fields={QUOTA} {...common} />
      <RatioSection options={options} />
      <LimitsSection options={options} />
      <Suspense fallback={<Skeleton active />}>
        <PriceSetting />
      </Suspense>
    </>
  );
}
