import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Descriptions, Row, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchHomePageContent, fetchNotice } from '../../api/status';
import { MarkdownContent } from '../../components/html-content/markdown-content';
import { Loading } from '../../components/loading/loading';
import { PageHeading } from '../../components/page-heading/page-heading';
import { queryKeys } from '../../lib/query-keys';
import { isFrameAddress } from '../../lib/sanitize';
import { formatTimestamp } from '../../lib/time';
import { useStatus } from '../../stores/status.store';
import { useSystemBrand } from '../../components/header/use-system-brand';

/** The default home: what the server runs and which sign-in methods are on. */
function SystemOverview() {
  const { t } = useTranslation();
  const status = useStatus();
  const { systemName } = useSystemBrand();
  const flag = (on: boolean | undefined) => (
    <Tag color={on ? 'green' : 'default'}>{on ? t('home.overview.enabled') : t('home.overview.disabled')}</Tag>
  );
  return (
    <>
      <PageHeading title={t('home.welcome', { name: systemName })} />
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card title={t('home.overview.system')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('home.overview.name')}>{systemName}</Descriptions.Item>
              <Descriptions.Item label={t('home.overview.version')}>
                {status.version || t('common.unknown')}
              </Descriptions.Item>
              <Descriptions.Item label={t('home.overview.startTime')}>
                {status.start_time
                  ? (formatTimestamp(status.start_time) ?? t('common.invalidTime'))
                  : t('common.unknown')}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={t('home.overview.config')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('home.overview.emailVerification')}>
                {flag(status.email_verification)}
              </Descriptions.Item>
              <Descriptions.Item label={t('home.overview.github')}>{flag(status.github_oauth)}</Descriptions.Item>
              <Descriptions.Item label={t('home.overview.wechat')}>{flag(status.wechat_login)}</Descriptions.Item>
              <Descriptions.Item label={t('home.overview.lark')}>{flag(!!status.lark_client_id)}</Descriptions.Item>
              <Descriptions.Item label={t('home.overview.turnstile')}>{flag(status.turnstile_check)}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
      </Row>
    </>
  );
}

/** Home (/): the notice, then the server's home page content (Markdown, HTML or a full-page frame). */
export default function HomePage() {
  const { t } = useTranslation();
  // Both are optional: without a notice none shows, without content the system overview does.
  const { data: notice } = useQuery({
    queryKey: queryKeys.read('home', 'notice'),
    queryFn: fetchNotice,
    meta: { ignoreFailure: true },
  });
  const homeContent = useQuery({
    queryKey: queryKeys.read('home', 'content'),
    queryFn: fetchHomePageContent,
    meta: { ignoreFailure: true },
  });
  const content = homeContent.data ?? '';
  const loaded = !homeContent.isPending;

  if (content && isFrameAddress(content)) {
    return (
      <div className="full-bleed">
        <iframe src={content.trim()} className="frame-page" title={t('home.frameTitle')} />
      </div>
    );
  }

  return (
    <div data-testid="home-page">
      {notice ? (
        <Alert
          type="info"
          showIcon
          closable
          style={{ marginBottom: 16 }}
          title={t('home.notice')}
          description={<MarkdownContent markdown={notice} />}
        />
      ) : null}
      {content ? (
        <Card>
          <MarkdownContent markdown={content} />
        </Card>
      ) : loaded ? (
        <SystemOverview />
      ) : (
        <Loading />
      )}
    </div>
  );
}
