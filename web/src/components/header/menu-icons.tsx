import {
  AppstoreOutlined,
  AuditOutlined,
  ClusterOutlined,
  DashboardOutlined,
  FileTextOutlined,
  GiftOutlined,
  HomeOutlined,
  KeyOutlined,
  MessageOutlined,
  TeamOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/**
 * Icon of each header entry, by entry key. Hidden from assistive technology: an antd icon is named after its
 * glyph ('cluster'), which would be read before the entry's own label.
 */
export const menuIcons: Record<string, ReactNode> = {
  home: <HomeOutlined aria-hidden />,
  channel: <ClusterOutlined aria-hidden />,
  chat: <MessageOutlined aria-hidden />,
  token: <KeyOutlined aria-hidden />,
  redemption: <GiftOutlined aria-hidden />,
  topup: <WalletOutlined aria-hidden />,
  user: <TeamOutlined aria-hidden />,
  log: <FileTextOutlined aria-hidden />,
  audit: <AuditOutlined aria-hidden />,
  about: <AppstoreOutlined aria-hidden />,
  status: <DashboardOutlined aria-hidden />,
};
