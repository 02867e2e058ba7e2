/** Service status. */
const status = {
  'status.title': '服务状态',
};
export default status;
