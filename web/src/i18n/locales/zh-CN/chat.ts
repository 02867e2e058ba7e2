/** Chat page. */
const chat = {
  'chat.title': '聊天',
};
export default chat;
