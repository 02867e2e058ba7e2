import { Button, Card, Form, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListPrice } from '../../../api/price';
import { useSaveOptions, type OptionMap } from '../operation/use-options';
import { PriceFields } from './price-fields';
import { showPriceErrors } from './price-form-errors';
import { priceFormValues, priceOfForm, type PriceFormValues } from './price-form-values';

const OPTION = 'DefaultModelPrice';

/** The stored default price, or null when unknown models are refused (`{}`, or text that is not a price). */
function storedDefault(options: OptionMap): ListPrice | null {
  try {
    const value: unknown = JSON.parse(options[OPTION] ?? '{}');
    return value && typeof value === 'object' && Object.keys(value).length > 0 ? (value as ListPrice) : null;
  } catch {
    return null;
  }
}

/** The DefaultModelPrice option: the price of a model nothing else prices; empty refuses such models. */
export function DefaultPrice({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PriceFormValues>();
  const saving = useSaveOptions();
  const stored = useMemo(() => storedDefault(options), [options]);

  const save = (values: PriceFormValues) => {
    const checked = priceOfForm(values);
    if ('errors' in checked) {
      showPriceErrors(form, checked.errors, t);
      return;
    }
    saving.mutate([[OPTION, JSON.stringify(checked.price)]]);
  };

  return (
    <Card title={t('price.default.title')} style={{ marginBottom: 16 }}>
      <Typography.Paragraph type="secondary">{t('price.default.hint')}</Typography.Paragraph>
      <Typography.Paragraph data-testid="default-price-state">
        {stored ? t('price.default.charging') : t('price.default.refusing')}
      </Typography.Paragraph>
      <Form<PriceFormValues>
        // Read again from the options once a save has reloaded them.
        key={options[OPTION] ?? ''}
        form={form}
        name="default-price"
        layout="vertical"
        initialValues={priceFormValues(stored)}
        onFinish={save}
      >
        <PriceFields />
        <Button htmlType="submit" loading={saving.isPending}>
          {t('price.default.save')}
        </Button>
      </Form>
    </Card>
  );
}
