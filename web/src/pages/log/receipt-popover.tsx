import { ProfileOutlined } from '@ant-design/icons';
import { tokenPrices } from '@modelgate/wire';
import { Button, Flex, Popover, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useWindowWidth } from '../../hooks/use-media';
import { useQuotaDisplay } from '../../hooks/use-quota';
import { NARROW_SCREEN_PX } from '../../lib/menu';
import { formatUsd } from '../../lib/price';
import { formatMoney } from '../../lib/quota';
import type { Receipt, ReceiptLine } from '../../lib/receipt';

/**
 * Items the console has words for: the token classes of a price and the per-call and per-unit items; another
 * item (a future one) shows as the server names it.
 */
const ITEMS = new Set<string>([...tokenPrices.keyof().options, 'per_call', 'image', 'audio_second', 'web_search']);

const itemName = (item: string, t: TFunction) => (ITEMS.has(item) ? t(`log.receipt.item.${item}`) : item);

/**
 * A line's unit price with its unit: US$ per 1M tokens, per unit or per 1,000, or (a ratio price) quota per token
 * or per image, before the group ratio.
 */
function unitPrice(line: ReceiptLine, t: TFunction): string {
  const price = formatUsd(line.unit_price);
  switch (line.unit) {
    case 'usd_per_mtok':
      return t('log.receipt.unit.usdPerMillion', { price });
    case 'usd_per_unit':
      return t('log.receipt.unit.usdPerUnit', { price });
    case 'usd_per_1000':
      return t('log.receipt.unit.usdPerThousand', { price });
    case 'quota_per_token':
      return t('log.receipt.unit.quotaPerToken', { price });
    case 'quota_per_unit':
      return t('log.receipt.unit.quotaPerUnit', { price });
  }
}

const cell = { padding: '2px 8px', whiteSpace: 'nowrap' } as const;
const numberCell = { ...cell, textAlign: 'right' } as const;

/** The receipt's lines in two columns, for a phone. */
function CompactLines({ receipt, money }: { receipt: Receipt; money: ((quota: number) => string) | null }) {
  const { t } = useTranslation();
  const amountCell = (quota: number, testId?: string) => (
    <td style={{ ...numberCell, verticalAlign: 'top' }}>
      <div data-testid={testId}>{quota}</div>
      {money && <Typography.Text type="secondary">{money(quota)}</Typography.Text>}
    </td>
  );
  return (
    <table style={{ borderCollapse: 'collapse', width: '100%' }} data-testid="receipt-compact">
      <thead>
        <tr>
          <th style={cell}>{t('log.receipt.column.item')}</th>
          <th style={numberCell}>
            {t('log.receipt.column.quota')}
            {money && ` / ${t('log.receipt.column.money')}`}
          </th>
        </tr>
      </thead>
      <tbody>
        {receipt.lines.map((line) => (
          <tr key={line.item} data-testid="receipt-line">
            <td style={{ ...cell, whiteSpace: 'normal', verticalAlign: 'top' }}>
              <div>{itemName(line.item, t)}</div>
              <Typography.Text type="secondary">
                {line.estimated ? t('log.receipt.estimated', { count: line.count }) : line.count} × {unitPrice(line, t)}
              </Typography.Text>
            </td>
            {amountCell(line.quota, 'receipt-line-quota')}
          </tr>
        ))}
        <tr data-testid="receipt-total" style={{ fontWeight: 600, borderTop: '1px solid currentColor' }}>
          <td style={cell}>{t('log.receipt.total')}</td>
          {amountCell(receipt.quota, 'receipt-total-quota')}
        </tr>
      </tbody>
    </table>
  );
}

/** A receipt: its lines (item, count, unit price, quota and, with currency display on, money), then how it was priced. */
export function ReceiptDetails({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const { displayInCurrency } = useQuotaDisplay();
  const perUnit = receipt.quota_per_unit > 0 ? receipt.quota_per_unit : 500_000;
  const money = (quota: number) => formatMoney(quota / perUnit);
  const amount = (quota: number) =>
    displayInCurrency ? t('log.receipt.amount', { quota, money: money(quota) }) : quota;
  const { settlement } = receipt;
  // On a phone five columns need ~390 px of a 338 px popover: two columns then, the item over its count and
  // unit price, the quota over the money (issue 33 point 3: the amount column was cut).
  const compact = useWindowWidth() <= NARROW_SCREEN_PX;
  return (
    <Flex vertical gap={8} data-testid="receipt" style={{ maxWidth: 'min(560px, 90vw)', overflowX: 'auto' }}>
      <Typography.Text strong>{t('log.receipt.title', { model: receipt.model })}</Typography.Text>
      {compact ? (
        <CompactLines receipt={receipt} money={displayInCurrency ? money : null} />
      ) : (
        <table style={{ borderCollapse: 'collapse' }}>
          <thead>
            <tr>
              <th style={cell}>{t('log.receipt.column.item')}</th>
              <th style={numberCell}>{t('log.receipt.column.count')}</th>
              <th style={numberCell}>{t('log.receipt.column.unitPrice')}</th>
              <th style={numberCell}>{t('log.receipt.column.quota')}</th>
              {displayInCurrency && <th style={numberCell}>{t('log.receipt.column.money')}</th>}
            </tr>
          </thead>
          <tbody>
            {receipt.lines.map((line) => (
              <tr key={line.item} data-testid="receipt-line">
                <td style={cell}>{itemName(line.item, t)}</td>
                <td style={numberCell}>
                  {line.estimated ? t('log.receipt.estimated', { count: line.count }) : line.count}
                </td>
                <td style={numberCell}>{unitPrice(line, t)}</td>
                <td style={numberCell} data-testid="receipt-line-quota">
                  {line.quota}
                </td>
                {displayInCurrency && <td style={numberCell}>{money(line.quota)}</td>}
              </tr>
            ))}
            <tr data-testid="receipt-total" style={{ fontWeight: 600, borderTop: '1px solid currentColor' }}>
              <td style={cell} colSpan={3}>
                {t('log.receipt.total')}
              </td>
              <td style={numberCell} data-testid="receipt-total-quota">
                {receipt.quota}
              </td>
              {displayInCurrency && <td style={numberCell}>{money(receipt.quota)}</td>}
            </tr>
          </tbody>
        </table>
      )}
      <Flex vertical gap={2}>
        <Typography.Text type="secondary">
          {receipt.group_price
            ? t('log.receipt.groupPrice')
            : t('log.receipt.groupRatio', { ratio: receipt.group_ratio })}
        </Typography.Text>
        <Typography.Text type="secondary">
          {receipt.tier === null
            ? t('log.receipt.baseTier', { tokens: receipt.prompt_tokens })
            : t('log.receipt.tier', { tokens: receipt.prompt_tokens, above: receipt.tier })}
        </Typography.Text>
        <Typography.Text type="secondary">
          {t(`log.receipt.source.${receipt.source}`, {
            defaultValue: receipt.source,
            reference: receipt.reference,
          })}
        </Typography.Text>
        {settlement && (
          <Typography.Text type="secondary" data-testid="receipt-settlement">
            {settlement.charged_on_top > 0
              ? t('log.receipt.chargedOnTop', {
                  reserved: amount(settlement.reserved),
                  extra: amount(settlement.charged_on_top),
                })
              : t('log.receipt.refunded', {
                  reserved: amount(settlement.reserved),
                  refunded: amount(settlement.refunded),
                })}
          </Typography.Text>
        )}
        {receipt.cappedByBalance !== undefined && (
          <Typography.Text type="warning" data-testid="receipt-capped">
            {t('log.receipt.cappedByBalance', { tokens: receipt.cappedByBalance })}
          </Typography.Text>
        )}
      </Flex>
    </Flex>
  );
}

/** The quota of a consume log that has a receipt: a button that opens the receipt. */
export function ReceiptPopover({ receipt, text }: { receipt: Receipt; text: string }) {
  const { t } = useTranslation();
  return (
    <Popover trigger="click" content={<ReceiptDetails receipt={receipt} />}>
      <Button
        type="link"
        size="small"
        style={{ padding: 0 }}
        aria-label={t('log.receipt.open', { quota: text })}
        data-testid="receipt-button"
      >
        {text}
        <ProfileOutlined aria-hidden />
      </Button>
    </Popover>
  );
}
