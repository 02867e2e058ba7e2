/** Footer. */
const footer = {
  'footer.default': '{{name}} {{version}} · 自托管的大模型 API 网关',
};
export default footer;
