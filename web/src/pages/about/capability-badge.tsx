import {
  ApiOutlined,
  AudioOutlined,
  BookOutlined,
  EyeOutlined,
  MessageOutlined,
  NodeIndexOutlined,
  PictureOutlined,
  QuestionCircleOutlined,
  RobotOutlined,
  SmileOutlined,
  ToolOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Capability } from './catalogue-types';

const look: Record<Exclude<Capability, ''>, { color: string; icon: ReactNode }> = {
  chat: { color: 'blue', icon: <MessageOutlined /> },
  multimodal: { color: 'purple', icon: <RobotOutlined /> },
  'text-to-image': { color: 'magenta', icon: <PictureOutlined /> },
  'text-to-audio': { color: 'volcano', icon: <AudioOutlined /> },
  'text-to-video': { color: 'red', icon: <VideoCameraOutlined /> },
  vision: { color: 'geekblue', icon: <EyeOutlined /> },
  'chat-rag': { color: 'cyan', icon: <BookOutlined /> },
  'chat-tools': { color: 'gold', icon: <ToolOutlined /> },
  vector: { color: 'green', icon: <NodeIndexOutlined /> },
  npc: { color: 'orange', icon: <SmileOutlined /> },
};

/** Coloured capability badge with its icon; unknown capabilities get a question mark. */
export function CapabilityBadge({ capability }: { capability: Capability }) {
  const { t } = useTranslation();
  if (!capability) {
    return (
      <Tag icon={<QuestionCircleOutlined />} variant="outlined">
        {t('common.unknown')}
      </Tag>
    );
  }
  const { color, icon } = look[capability] ?? { color: 'default', icon: <ApiOutlined /> };
  return (
    <Tag color={color} icon={icon}>
      {t(`about.capability.${capability}`)}
    </Tag>
  );
}
