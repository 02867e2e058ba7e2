import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Col, Form, InputNumber, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TOKEN_FIELDS, UNIT_FIELDS } from './price-form-values';

/** The schema's bounds (wire's listPrice): per 1M tokens, and per call or unit. */
const PER_MILLION_MAX = 100_000;
const PER_UNIT_MAX = 10_000;
const MAX_TIERS = 8;

const amount = (max: number) => <InputNumber min={0} max={max} style={{ width: '100%' }} />;

/** The token prices of a price (or of a tier, under `prefix`), in a grid. */
function TokenFields({ prefix = [] }: { prefix?: (string | number)[] }) {
  const { t } = useTranslation();
  return (
    <Row gutter={12}>
      {TOKEN_FIELDS.map((field) => (
        <Col key={field} xs={12} md={8}>
          <Form.Item name={[...prefix, field]} label={t(`price.field.${field}`)}>
            {amount(PER_MILLION_MAX)}
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}

/** The inputs of a list price: token prices, per-call and per-unit prices, and (when asked for) context tiers. */
export function PriceFields({ withTiers = true }: { withTiers?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Title level={5}>{t('price.form.tokens')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('price.form.tokensHint')}</Typography.Paragraph>
      <TokenFields />
      <Typography.Title level={5}>{t('price.form.units')}</Typography.Title>
      <Row gutter={12}>
        {UNIT_FIELDS.map((field) => (
          <Col key={field} xs={12} md={6}>
            <Form.Item name={field} label={t(`price.field.${field}`)}>
              {amount(PER_UNIT_MAX)}
            </Form.Item>
          </Col>
        ))}
      </Row>
      {withTiers && (
        <>
          <Typography.Title level={5}>{t('price.form.tiers')}</Typography.Title>
          <Typography.Paragraph type="secondary">{t('price.form.tiersHint')}</Typography.Paragraph>
          <Form.List name="tiers">
            {(tiers, { add, remove }, { errors }) => (
              <>
                {tiers.map((tier, index) => (
                  <Card
                    key={tier.key}
                    size="small"
                    style={{ marginBottom: 12 }}
                    title={t('price.form.tier', { index: index + 1 })}
                    extra={
                      <Button
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('price.form.removeTier')}
                        onClick={() => remove(tier.name)}
                      />
                    }
                  >
                    <Form.Item name={[tier.name, 'above']} label={t('price.field.above')}>
                      <InputNumber min={1} precision={0} style={{ width: '100%' }} />
                    </Form.Item>
                    <TokenFields prefix={[tier.name]} />
                  </Card>
                ))}
                <Form.ErrorList errors={errors} />
                {tiers.length < MAX_TIERS && (
                  <Button icon={<PlusOutlined />} onClick={() => add({})} style={{ marginBottom: 12 }}>
                    {t('price.form.addTier')}
                  </Button>
                )}
              </>
            )}
          </Form.List>
        </>
      )}
    </>
  );
}
