/** Usage logs. */
const log = {
  'log.title': '使用日志',
};
export default log;
