import { Button, Col, DatePicker, Form, Input, Row, Select } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { LogFilters } from '../../api/log';
import { LOG_TYPES } from './log-type-tag';

export interface LogFilterBarProps {
  value: LogFilters;
  admin: boolean;
  onChange: (next: LogFilters) => void;
  onApply: () => void;
}

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** The log filters: type, token, model, time range, and for admins username and channel. */
export function LogFilterBar({ value, admin, onChange, onApply }: LogFilterBarProps) {
  const { t } = useTranslation();
  const set = <K extends keyof LogFilters>(key: K, next: LogFilters[K]) => onChange({ ...value, [key]: next });
  const column = { xs: 24, sm: 12, lg: 6 };
  return (
    <Form layout="vertical" onFinish={onApply}>
      <Row gutter={12}>
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
        <Col {...column} style={{ display: 'flex', alignItems: 'flex-end' }}>
          <Form.Item>
            <Button type="primary" htmlType="submit">
              {t('log.filter.apply')}
            </Button>
          </Form.Item>
        </Col>
      </Row>
    </Form>
  );
}
