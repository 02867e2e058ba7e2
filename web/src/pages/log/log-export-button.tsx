import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logExportUrl, type LogFilters } from '../../api/log';
import { downloadCsv, exportPercent, saveBlob, type DownloadProgress } from './log-download';
import { utcZoneLabel } from './log-zone';

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

/** Downloads the filtered logs as CSV, showing rows and bytes received (and the expected rows when known). */
export function LogExportButton({ filters, admin }: { filters: LogFilters; admin: boolean }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = useRef<AbortController | null>(null);

  async function start() {
    const controller = new AbortController();
    running.current = controller;
    setError(null);
    setProgress({ rows: 0, bytes: 0, totalRows: null });
    try {
      const { blob, fileName } = await downloadCsv(logExportUrl(filters, admin), setProgress, controller.signal);
      saveBlob(blob, fileName);
    } catch (failure) {
      if (!controller.signal.aborted)
        setError(t('log.export.failed', { message: failure instanceof Error ? failure.message : String(failure) }));
    } finally {
      running.current = null;
      setProgress(null);
    }
  }

  return (
    <Flex vertical gap={8}>
      <Flex gap={12} align="center" wrap>
        <Button icon={<DownloadOutlined />} loading={progress !== null} onClick={() => void start()}>
          {t('log.export.button')}
        </Button>
        <Typography.Text type="secondary" data-testid="log-export-zone">
          {t('log.export.zone', { zone: utcZoneLabel() })}
        </Typography.Text>
        {progress && (
          <>
            <Typography.Text type="secondary" data-testid="log-export-progress">
              {progress.totalRows === null
                ? t('log.export.progress', { rows: progress.rows, size: sizeText(progress.bytes) })
                : t('log.export.progressPercent', {
                    rows: progress.rows,
                    total: progress.totalRows,
                    percent: exportPercent(progress.rows, progress.totalRows),
                    size: sizeText(progress.bytes),
                  })}
            </Typography.Text>
            <Button size="small" onClick={() => running.current?.abort()}>
              {t('log.export.cancel')}
            </Button>
          </>
        )}
      </Flex>
      {error && <Alert type="error" showIcon message={error} closable onClose={() => setError(null)} />}
    </Flex>
  );
}
