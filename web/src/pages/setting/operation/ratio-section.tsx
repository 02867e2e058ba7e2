import type { OptionPreview } from '@modelgate/wire';
import { Collapse, Input, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { builtInKey, previewOptions } from '../../../api/option';
import { isValidJson } from '../../../lib/json';
import { formatUsd } from '../../../lib/price';
import type { OptionField } from './option-fields';
import { OptionSection } from './option-section';
import type { OptionMap } from './use-options';

type Change = OptionPreview['changes'][number];

const RATIO: OptionField[] = [
  {
    key: 'ModelRatio',
    kind: 'json',
    placeholderKey: 'settingAdmin.placeholder.ratioTable',
    hintKey: 'settingAdmin.hint.ratioTable',
  },
  { key: 'CompletionRatio', kind: 'json', placeholderKey: 'settingAdmin.placeholder.ratioTable' },
  { key: 'GroupRatio', kind: 'json' },
  { key: 'WebSearchPrice', kind: 'number', min: 0, step: 0.01, hintKey: 'settingAdmin.hint.webSearchPrice' },
];
const BUILT_IN = ['ModelRatio', 'CompletionRatio'];

/** Ratio texts must be JSON; the error names the first one that is not. */
function ratioError(values: Record<string, unknown>): string | null {
  for (const key of ['ModelRatio', 'GroupRatio', 'CompletionRatio']) {
    const text = String(values[key] ?? '');
    if (text.trim() && !isValidJson(text)) return `settingAdmin.ratio.invalid.${key}`;
  }
  return null;
}

interface Pending {
  changes: Change[];
  save: () => void;
}

/**
 * The ratio (倍率) section. The tables hold only the admin's own entries (one-api's built-in table is shown
 * apart, read-only); a save that would re-price models lists them, before → after, and waits for a yes.
 */
export function RatioSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Pending | null>(null);
  const [checking, setChecking] = useState(false);

  const beforeSave = (changes: Array<[string, string]>, save: () => void) => {
    if (checking) return;
    setChecking(true);
    previewOptions(changes)
      .then((preview) => {
        if (!preview || preview.changes.length === 0) save();
        else setPending({ changes: preview.changes, save });
      })
      // The API client has shown why the preview failed; nothing is saved unseen.
      .catch(() => undefined)
      .finally(() => setChecking(false));
  };

  const priceText = (price: Change['before']) =>
    price.input === null && price.output === null
      ? t('settingAdmin.ratio.noPrice')
      : t('settingAdmin.ratio.price', {
          source: t(`price.source.${price.source}`, { defaultValue: price.source }),
          input: price.input === null ? '—' : formatUsd(Number(price.input.toPrecision(6))),
          output: price.output === null ? '—' : formatUsd(Number(price.output.toPrecision(6))),
        });

  return (
    <>
      <OptionSection
        titleKey="settingAdmin.section.ratio"
        fields={RATIO}
        options={options}
        validate={ratioError}
        beforeSave={beforeSave}
      >
        <Collapse
          size="small"
          style={{ marginBottom: 12 }}
          items={BUILT_IN.filter((key) => options[builtInKey(key)]).map((key) => ({
            key,
            label: t('settingAdmin.ratio.builtIn', { name: t(`settingAdmin.option.${key}`) }),
            children: (
              <Input.TextArea
                readOnly
                value={options[builtInKey(key)]}
                autoSize={{ minRows: 4, maxRows: 12 }}
                style={{ fontFamily: 'monospace' }}
                aria-label={t('settingAdmin.ratio.builtIn', { name: t(`settingAdmin.option.${key}`) })}
              />
            ),
          }))}
        />
      </OptionSection>
      <Modal
        open={pending !== null}
        title={t('settingAdmin.ratio.confirm.title', { count: pending?.changes.length ?? 0 })}
        okText={t('settingAdmin.ratio.confirm.ok')}
        cancelText={t('settingAdmin.ratio.confirm.cancel')}
        onOk={() => {
          pending?.save();
          setPending(null);
        }}
        onCancel={() => setPending(null)}
        width={880}
      >
        <Typography.Paragraph type="secondary">{t('settingAdmin.ratio.confirm.description')}</Typography.Paragraph>
        <Table<Change>
          data-testid="ratio-repricing"
          size="small"
          rowKey={(change) => `${change.model}\u0000${change.channel_type ?? ''}\u0000${change.group}`}
          dataSource={pending?.changes ?? []}
          pagination={{ pageSize: 8, showSizeChanger: false }}
          columns={[
            {
              title: t('settingAdmin.ratio.column.model'),
              key: 'model',
              render: (_value, change) =>
                change.channel_type === null ? change.model : `${change.model} (${change.channel_type})`,
            },
            { title: t('settingAdmin.ratio.column.before'), key: 'before', render: (_v, c) => priceText(c.before) },
            { title: t('settingAdmin.ratio.column.after'), key: 'after', render: (_v, c) => priceText(c.after) },
          ]}
        />
      </Modal>
    </>
  );
}
