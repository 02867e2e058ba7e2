import {
  AppstoreOutlined,
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

/** Icon of each header entry, by entry key. */
export const menuIcons: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  channel: <ClusterOutlined />,
  chat: <MessageOutlined />,
  token: <KeyOutlined />,
  redemption: <GiftOutlined />,
  topup: <WalletOutlined />,
  user: <TeamOutlined />,
  log: <FileTextOutlined />,
  about: <AppstoreOutlined />,
  status: <DashboardOutlined />,
};
