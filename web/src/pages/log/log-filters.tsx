import { DownOutlined, FilterOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Checkbox, Col, DatePicker, Flex, Form, Input, Row, Select, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEST_LOG_TYPE, type LogFilters } from '../../api/log';
import { useWindowWidth } from '../../hooks/use-media';
import { NARROW_SCREEN_PX } from '../../lib/menu';
import { countSetFilters } from './log-range';
import { LOG_TYPES } from './log-type-tag';

export interface LogFilterBarProps {
  value: LogFilters;
  /** The filters the page started with; a field that differs from them counts as set. */
  defaults: LogFilters;
  admin: boolean;
  onChange: (next: LogFilters) => void;
  onApply: () => void;
}

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/**
 * The log filters: type (and 'hide test logs'), token, model, time range, and for admins username and channel. On a phone the seven
 * fields would push the first log more than a screen down, so they fold behind a toggle that says how many are set.
 */
export function LogFilterBar({ value, defaults, admin, onChange, onApply }: LogFilterBarProps) {
  const { t } = useTranslation();
  const narrow = useWindowWidth() <= NARROW_SCREEN_PX;
  const [open, setOpen] = useState(false);
  const set = <K extends keyof LogFilters>(key: K, next: LogFilters[K]) => onChange({ ...value, [key]: next });
  const column = { xs: 24, sm: 12, lg: 6 };
  const setCount = countSetFilters(value, defaults, admin);
  const apply = (
    <Button type="primary" htmlType="submit">
      {t('log.filter.apply')}
    </Button>
  );
  return (
    <Form layout="vertical" onFinish={onApply}>
      {narrow && (
        <Flex gap={8} align="center" wrap style={{ marginBottom: open ? 12 : 0 }}>
          <Button
            icon={<FilterOutlined />}
            aria-expanded={open}
            aria-controls="log-filter-fields"
            onClick={() => setOpen(!open)}
          >
            {t('log.filter.toggle')}
            {open ? <UpOutlined /> : <DownOutlined />}
          </Button>
          {setCount > 0 && (
            <Tag color="blue" data-testid="log-filter-count">
              {t('log.filter.setCount', { count: setCount })}
            </Tag>
          )}
          <span style={{ marginInlineStart: 'auto' }}>{apply}</span>
        </Flex>
      )}
      {/* Folded by style, not unmounted, so typed values stay; antd's row would override a hidden attribute. */}
      <Row gutter={12} id="log-filter-fields" style={narrow && !open ? { display: 'none' } : undefined}>
        <Col {...column}>
          <Form.Item label={t('log.filter.type')}>
            <Select
              value={value.type}
              onChange={(type: number) => set('type', type)}
              options={LOG_TYPES.map((type) => ({
                value: type,
                label: t(type === 0 ? 'log.type.all' : `log.type.${type}`),
              }))}
              aria-label={t('log.filter.type')}
            />
          </Form.Item>
          {/* Channel tests write a log each (type 5); with many channels they crowd out the calls. */}
          <Form.Item style={{ marginTop: -16 }}>
            <Checkbox
              checked={value.hide_test && value.type !== TEST_LOG_TYPE}
              disabled={value.type === TEST_LOG_TYPE}
              onChange={(event) => set('hide_test', event.target.checked)}
              data-testid="log-hide-test"
            >
              {t('log.filter.hideTest')}
            </Checkbox>
          </Form.Item>
        </Col>
        <Col {...column}>
          <Form.Item label={t('log.filter.tokenName')}>
            <Input
              aria-label={t('log.filter.tokenName')}
              value={value.token_name}
              onChange={(event) => set('token_name', event.target.value)}
              allowClear
            />
          </Form.Item>
        </Col>
        <Col {...column}>
          <Form.Item label={t('log.filter.modelName')}>
            <Input
              aria-label={t('log.filter.modelName')}
              value={value.model_name}
              onChange={(event) => set('model_name', event.target.value)}
              allowClear
            />
          </Form.Item>
        </Col>
        <Col {...column}>
          <Form.Item label={t('log.filter.start')}>
            <DatePicker
              showTime
              format={TIME_FORMAT}
              style={{ width: '100%' }}
              aria-label={t('log.filter.start')}
              value={dayjs.unix(value.start_timestamp)}
              onChange={(date) => date && set('start_timestamp', date.unix())}
              allowClear={false}
            />
          </Form.Item>
        </Col>
        <Col {...column}>
          <Form.Item label={t('log.filter.end')}>
            <DatePicker
              showTime
              format={TIME_FORMAT}
              style={{ width: '100%' }}
              aria-label={t('log.filter.end')}
              value={dayjs.unix(value.end_timestamp)}
              onChange={(date) => date && set('end_timestamp', date.unix())}
              allowClear={false}
            />
          </Form.Item>
        </Col>
        {admin && (
          <>
            <Col {...column}>
              <Form.Item label={t('log.filter.username')}>
                <Input
                  aria-label={t('log.filter.username')}
                  value={value.username}
                  onChange={(event) => set('username', event.target.value)}
                  allowClear
                />
              </Form.Item>
            </Col>
            <Col {...column}>
              <Form.Item label={t('log.filter.channel')}>
                <Input
                  aria-label={t('log.filter.channel')}
                  value={value.channel}
                  onChange={(event) => set('channel', event.target.value.replace(/\D/g, ''))}
                  allowClear
                />
              </Form.Item>
            </Col>
          </>
        )}
        {!narrow && (
          <Col {...column} style={{ display: 'flex', alignItems: 'flex-end' }}>
            <Form.Item>{apply}</Form.Item>
          </Col>
        )}
      </Row>
    </Form>
  );
}
