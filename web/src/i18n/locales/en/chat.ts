import type zh from '../zh-CN/chat';

const chat: Record<keyof typeof zh, string> = {
  'chat.title': 'Chat',
};
export default chat;
