import { Flex, theme } from 'antd';
import type { ReactNode } from 'react';

export interface NoticeScreenProps {
  title: ReactNode;
  detail?: ReactNode;
  action?: ReactNode;
}

/** A light full-width message (errors, missing permission) that avoids antd's illustrated Result. */
export function NoticeScreen({ title, detail, action }: NoticeScreenProps) {
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      gap={12}
      style={{ minHeight: 240, padding: 24, textAlign: 'center' }}
    >
      <h2 style={{ margin: 0, color: token.colorText, fontSize: token.fontSizeHeading3 }}>{title}</h2>
      {detail ? <div style={{ color: token.colorTextSecondary, overflowWrap: 'anywhere' }}>{detail}</div> : null}
      {action}
    </Flex>
  );
}
