import type zh from '../zh-CN/footer';

const footer: Record<keyof typeof zh, string> = {
  'footer.default': '{{name}} {{version}} · self-hosted LLM API gateway',
};
export default footer;
